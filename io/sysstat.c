/*
 * sysstat: /proc/diskstats, /proc/stat and /proc/PID/stat snapshots and their
 * differences, and the block device under a path with its /sys/block queue
 * settings. The *_parse functions take the text, so tests feed fixtures; the
 * *_read functions read the live file. Returns 0 or -errno; never prints.
 */
#include "io/sysstat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "io/clock.h"
#include "io/file.h"
#include "io/pubdev.h"

/* Copy at most len-1 bytes of src (of which n are wanted) and terminate. */
static void copy_str(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* A procfs or sysfs file whole, into a malloc'd string. */
static int read_text(const char *path, char **out)
{
	return file_read_all(path, 0, out, NULL);
}

/* First line of a sysfs file, trailing newline removed, into buf. */
static int read_line(const char *path, char *buf, size_t len)
{
	char *text;
	int rc = read_text(path, &text);

	if (rc < 0)
		return rc;
	copy_str(buf, len, text, strcspn(text, "\n"));
	free(text);
	return 0;
}

#define BALLOON_DEVICE_ID "0x0005"
#define BALLOON_F_REPORTING 5

int sysstat_page_reporting_read(const char *sys_root, struct page_reporting *out)
{
	const char *root = sys_root ? sys_root : "/sys";
	char path[SYSSTAT_PATH_MAX], id[16], features[256];
	struct dirent *e;
	DIR *d;

	*out = (struct page_reporting){ .on = false, .order = -1, .reported_kib = -1 };
	snprintf(path, sizeof(path), "%s/bus/virtio/devices", root);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d)) != NULL && !out->on) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/bus/virtio/devices/%s/device", root, e->d_name);
		if (read_line(path, id, sizeof(id)) < 0 || strcmp(id, BALLOON_DEVICE_ID) != 0)
			continue;
		/* one character per feature bit, bit 0 first */
		snprintf(path, sizeof(path), "%s/bus/virtio/devices/%s/features", root, e->d_name);
		out->on = read_line(path, features, sizeof(features)) == 0 &&
			  strlen(features) > BALLOON_F_REPORTING && features[BALLOON_F_REPORTING] == '1';
	}
	closedir(d);
	if (out->on) {
		snprintf(path, sizeof(path), "%s/module/page_reporting/parameters/page_reporting_order", root);
		out->order = file_read_long(path);
		snprintf(path, sizeof(path), "%s/module/page_reporting/parameters/reported_kib", root);
		out->reported_kib = file_read_long(path);
	}
	return 0;
}

int sysstat_disk_parse(const char *text, const char *name, struct disk_snap *out)
{
	const char *line = text;
	char dev[SYSSTAT_NAME_MAX];
	unsigned maj, min;
	struct disk_snap d;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		d = (struct disk_snap){ 0 };
		int n = sscanf(line, "%u %u %63s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			       " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			       " %" SCNu64 " %" SCNu64 " %" SCNu64,
			       &maj, &min, dev, &d.reads, &d.reads_merged, &d.read_sectors,
			       &d.read_ms, &d.writes, &d.writes_merged, &d.write_sectors,
			       &d.write_ms, &d.in_flight, &d.io_ms, &d.weighted_ms);
		if (n == 14 && strcmp(dev, name) == 0) {
			snprintf(d.name, sizeof(d.name), "%s", dev);
			*out = d;
			return 0;
		}
	}
	return -ENOENT;
}

int sysstat_disk_read(const char *name, struct disk_snap *out)
{
	return sysstat_disk_read_file(NULL, name, out);
}

int sysstat_disk_read_file(const char *file, const char *name, struct disk_snap *out)
{
	char *text;
	int rc = read_text(file && *file ? file : "/proc/diskstats", &text);

	if (rc < 0)
		return rc;
	rc = sysstat_disk_parse(text, name, out);
	out->taken_ns = clock_now_ns();
	free(text);
	return rc;
}

void sysstat_disk_diff(const struct disk_snap *a, const struct disk_snap *b,
		       struct disk_delta *out)
{
	double ms;

	*out = (struct disk_delta){
		.elapsed_s = (double)(b->taken_ns - a->taken_ns) / 1e9,
		.reads = b->reads - a->reads,
		.reads_merged = b->reads_merged - a->reads_merged,
		.read_bytes = (b->read_sectors - a->read_sectors) * 512,
		.writes = b->writes - a->writes,
		.write_bytes = (b->write_sectors - a->write_sectors) * 512,
	};
	ms = out->elapsed_s * 1000.0;
	if (out->reads) {
		out->avg_read_kib = (double)out->read_bytes / (double)out->reads / 1024.0;
		out->read_await_ms = (double)(b->read_ms - a->read_ms) / (double)out->reads;
	}
	if (ms > 0) {
		out->avg_queue_depth = (double)(b->weighted_ms - a->weighted_ms) / ms;
		out->util_pct = (double)(b->io_ms - a->io_ms) / ms * 100.0;
	}
}

int sysstat_cpu_parse(const char *text, struct cpu_snap *out)
{
	const char *line;
	struct cpu_snap c = { 0 };

	if (sscanf(text, "cpu %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64, &c.user, &c.nice, &c.system,
		   &c.idle, &c.iowait, &c.irq, &c.softirq, &c.steal) < 4)
		return -EINVAL;
	for (line = strchr(text, '\n'); line; line = strchr(line + 1, '\n'))
		if (strncmp(line + 1, "cpu", 3) == 0 && line[4] >= '0' && line[4] <= '9')
			c.ncpu++;
	*out = c;
	return 0;
}

int sysstat_cpu_read(struct cpu_snap *out)
{
	char *text;
	int rc = read_text("/proc/stat", &text);

	if (rc < 0)
		return rc;
	rc = sysstat_cpu_parse(text, out);
	free(text);
	return rc;
}

static uint64_t cpu_total(const struct cpu_snap *c)
{
	return c->user + c->nice + c->system + c->idle + c->iowait + c->irq +
	       c->softirq + c->steal;
}

void sysstat_cpu_diff(const struct cpu_snap *a, const struct cpu_snap *b,
		      struct cpu_delta *out)
{
	double total = (double)(cpu_total(b) - cpu_total(a));

	*out = (struct cpu_delta){ 0 };
	if (total <= 0)
		return;
	out->user_pct = (double)((b->user + b->nice) - (a->user + a->nice)) / total * 100.0;
	out->system_pct = (double)((b->system + b->irq + b->softirq) -
				   (a->system + a->irq + a->softirq)) / total * 100.0;
	out->iowait_pct = (double)(b->iowait - a->iowait) / total * 100.0;
	out->idle_pct = (double)(b->idle - a->idle) / total * 100.0;
	out->steal_pct = (double)(b->steal - a->steal) / total * 100.0;
}

int sysstat_proc_parse(const char *text, struct proc_snap *out)
{
	const char *p = strrchr(text, ')');
	uint64_t utime, stime;
	int processor = -1;

	if (!p)
		return -EINVAL;
	/* After "pid (comm)": state is field 3; utime and stime are 14 and 15,
	 * the CPU it last ran on 39 (kernels since 2.2 have it). */
	if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %" SCNu64
		   " %" SCNu64 " %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s"
		   " %*s %*s %*s %*s %*s %*s %*s %d", &utime, &stime, &processor) < 2)
		return -EINVAL;
	*out = (struct proc_snap){ .utime = utime, .stime = stime, .processor = processor };
	return 0;
}

int sysstat_proc_read(pid_t pid, struct proc_snap *out)
{
	char path[64], *text;
	int rc;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((rc = read_text(path, &text)) < 0)
		return rc;
	rc = sysstat_proc_parse(text, out);
	out->taken_ns = clock_now_ns();
	free(text);
	return rc;
}

void sysstat_proc_diff(const struct proc_snap *a, const struct proc_snap *b,
		       struct proc_delta *out)
{
	double hz = (double)sysconf(_SC_CLK_TCK);
	double elapsed = (double)(b->taken_ns - a->taken_ns) / 1e9;

	*out = (struct proc_delta){
		.user_s = (double)(b->utime - a->utime) / hz,
		.system_s = (double)(b->stime - a->stime) / hz,
	};
	if (elapsed > 0)
		out->cpu_share = (out->user_s + out->system_s) / elapsed;
}

int sysstat_sched_parse(const char *text, struct sched_snap *out)
{
	uint64_t on, rq, n;
	char end;

	if (sscanf(text, "%" SCNu64 " %" SCNu64 " %" SCNu64 "%c", &on, &rq, &n, &end) != 4 ||
	    (end != '\n' && end != ' '))
		return -EINVAL;
	*out = (struct sched_snap){ .oncpu_ns = on, .runqueue_ns = rq, .slices = n };
	return 0;
}

int sysstat_sched_read(pid_t pid, struct sched_snap *out)
{
	char path[64], *text;
	int rc;

	if (pid > 0)
		snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/schedstat");
	if ((rc = read_text(path, &text)) < 0)
		return rc;
	rc = sysstat_sched_parse(text, out);
	out->taken_ns = clock_now_ns();
	free(text);
	return rc;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* /sys/dev/block/MAJ:MIN resolves to .../block/DISK[/PART]: fill name and disk. */
static int device_names(dev_t dev, struct device_info *out)
{
	char link[64], target[PATH_MAX], *slash;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return errno == ENOENT ? -ENODEV : -errno;
	target[n] = '\0';
	copy_str(out->name, sizeof(out->name), base_name(target), strlen(base_name(target)));
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u/partition", major(dev), minor(dev));
	if (access(link, F_OK) == 0 && (slash = strrchr(target, '/')) != NULL) {
		*slash = '\0';
		copy_str(out->disk, sizeof(out->disk), base_name(target), strlen(base_name(target)));
	} else {
		memcpy(out->disk, out->name, sizeof(out->disk));
	}
	return 0;
}

/* Entries of an open directory besides . and .. (consumes it). */
static int readdir_count(DIR *d)
{
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	return n;
}

static long queue_long(const char *disk, const char *what)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", disk, what);
	return file_read_long(path);
}

/* "none [mq-deadline] kyber" -> "mq-deadline"; a lone word is taken as is. */
static void selected_scheduler(const char *line, char *out, size_t len)
{
	const char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close)
		copy_str(out, len, open + 1, (size_t)(close - open - 1));
	else
		copy_str(out, len, line, strlen(line));
}

static void queue_settings(struct device_info *out)
{
	char path[PATH_MAX], line[256];

	out->rotational = (int)queue_long(out->disk, "rotational");
	out->nr_requests = queue_long(out->disk, "nr_requests");
	out->read_ahead_kb = queue_long(out->disk, "read_ahead_kb");
	out->max_sectors_kb = queue_long(out->disk, "max_sectors_kb");
	out->logical_block_size = queue_long(out->disk, "logical_block_size");
	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", out->disk);
	if (read_line(path, line, sizeof(line)) == 0)
		selected_scheduler(line, out->scheduler, sizeof(out->scheduler));
	snprintf(path, sizeof(path), "/sys/block/%s/device/model", out->disk);
	if (read_line(path, out->model, sizeof(out->model)) == 0) {
		size_t n = strlen(out->model);
		while (n > 0 && out->model[n - 1] == ' ')
			out->model[--n] = '\0';
	}
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n'))
		s[--n] = '\0';
}

/* The bus under the disk (its device's subsystem), refined by the path:
 * SCSI disks behind libata or USB say so. */
static void transport_of(struct device_info *out)
{
	char path[PATH_MAX], real[PATH_MAX], line[64];
	const char *base;

	snprintf(path, sizeof(path), "/sys/block/%s/device/subsystem", out->disk);
	if (!realpath(path, real))
		return;
	base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	copy_str(out->transport, sizeof(out->transport), base, strlen(base));
	snprintf(path, sizeof(path), "/sys/block/%s/device", out->disk);
	if (!realpath(path, real))
		return;
	if (!strcmp(out->transport, "scsi") && strstr(real, "/ata"))
		copy_str(out->transport, sizeof(out->transport), "ata", 3);
	else if (!strcmp(out->transport, "scsi") && strstr(real, "/usb"))
		copy_str(out->transport, sizeof(out->transport), "usb", 3);
	snprintf(path, sizeof(path), "/sys/block/%s/device/transport", out->disk);
	if (!strcmp(out->transport, "nvme") && read_line(path, line, sizeof(line)) == 0) {
		trim(line);
		snprintf(out->transport, sizeof(out->transport), "nvme over %.20s", line);
	}
}

static void identity(struct device_info *out)
{
	char path[PATH_MAX], line[64];
	long sectors;

	snprintf(path, sizeof(path), "/sys/block/%s/device/vendor", out->disk);
	if (read_line(path, out->vendor, sizeof(out->vendor)) == 0)
		trim(out->vendor);
	snprintf(path, sizeof(path), "/sys/block/%s/size", out->disk);
	sectors = file_read_long(path);
	out->size_bytes = sectors < 0 ? -1 : (long long)sectors * 512;	/* always 512-byte units */
	transport_of(out);
	snprintf(path, sizeof(path), "/sys/block/%s/device/device", out->disk);
	if (!out->model[0] && !strcmp(out->transport, "virtio") && read_line(path, line, sizeof(line)) == 0 &&
	    strtol(line, NULL, 0) == 2)	/* virtio device id 2: a block device */
		copy_str(out->model, sizeof(out->model), "virtio block device", 19);
}

/* Add the leaf devices under DISK (/sys/block/DISK/slaves), DEPTH levels at most. */
static void add_members(struct device_info *out, const char *disk, int depth)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/block/%s/slaves", disk);
	if (depth > 4 || !(d = opendir(path)))
		return;
	while ((e = readdir(d)) != NULL && out->nmembers < SYSSTAT_MAX_MEMBERS) {
		char sub[PATH_MAX];
		DIR *s;

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "/sys/block/%s/slaves", e->d_name);
		s = opendir(sub);
		if (s && readdir_count(s) > 0) {
			add_members(out, e->d_name, depth + 1);
		} else {
			copy_str(out->members[out->nmembers], SYSSTAT_NAME_MAX, e->d_name,
				 strlen(e->d_name));
			out->nmembers++;
		}
		if (s)
			closedir(s);
	}
	closedir(d);
}

void sysstat_fstype_parse(const char *text, unsigned maj, unsigned min,
			  char *out, size_t len)
{
	const char *line = text;

	copy_str(out, len, "unknown", 7);
	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *sep = strstr(line, " - "), *end = strchr(line, '\n');
		unsigned a, b;
		char type[64];

		if (sscanf(line, "%*d %*d %u:%u", &a, &b) != 2 || a != maj || b != min)
			continue;
		if (!sep || (end && sep > end) || sscanf(sep + 3, "%63s", type) != 1)
			continue;
		copy_str(out, len, type, strlen(type));
		return;
	}
}

static void fs_type(dev_t dev, struct device_info *out)
{
	char *text;

	copy_str(out->fstype, sizeof(out->fstype), "unknown", 7);
	if (read_text("/proc/self/mountinfo", &text) < 0)
		return;
	sysstat_fstype_parse(text, major(dev), minor(dev), out->fstype, sizeof(out->fstype));
	free(text);
}

void sysstat_fstype_for_path(const char *path, char *out, size_t len)
{
	struct device_info d;
	struct stat st;

	copy_str(out, len, "unknown", 7);
	if (stat(path, &st) < 0)
		return;
	fs_type(st.st_dev, &d);
	copy_str(out, len, d.fstype, strlen(d.fstype));
}

int sysstat_device_for_path(const char *path, struct device_info *out)
{
	struct stat st;
	int rc;

	*out = (struct device_info){
		.rotational = -1, .nr_requests = -1, .read_ahead_kb = -1,
		.max_sectors_kb = -1, .logical_block_size = -1, .size_bytes = -1,
	};
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		fs_type(st.st_dev, out);
	rc = device_names(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev, out);
	if (rc == -ENODEV && !S_ISBLK(st.st_mode))
		return pubdev_find(major(st.st_dev), minor(st.st_dev), out);
	if (rc < 0)
		return rc;
	queue_settings(out);
	identity(out);
	add_members(out, out->disk, 0);
	return 0;
}
