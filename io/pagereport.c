/*
 * pagereport: free page reporting paused for a sweep and put back; see
 * pagereport.h. The state file holds one line, "ORDER BOOT_ID": the order
 * to put back and the boot it was saved in (a file from an earlier boot is
 * ignored: the kernel started again from its own default).
 */
#include "io/pagereport.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/clock.h"
#include "io/file.h"

#define BACK_CHUNK    PAGEREPORT_BACK_CHUNK
#define BACK_RESERVE  (1ull << 30)
#define STATE_LINE    128

static void path_of(char *out, size_t len, const char *root, const char *dflt, const char *rest)
{
	snprintf(out, len, "%s/%s", root ? root : dflt, rest);
}

/* A procfs or sysfs file whole (NUL-terminated; free it), or NULL. */
static char *read_path(const char *path)
{
	char *text;

	return file_read_all(path, 1 << 16, &text, NULL) == 0 ? text : NULL;
}

static int write_long_at(const char *path, long v)
{
	char buf[32];
	int fd = open(path, O_WRONLY | O_CLOEXEC), n, ret = 0;

	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%ld\n", v);
	if (write(fd, buf, (size_t)n) != n)
		ret = errno ? -errno : -EIO;
	close(fd);
	return ret;
}

/* The largest block the buddy allocator has (the columns of a zone's line
 * of /proc/buddyinfo, less one), or -1. */
static long largest_order(const char *proc_root)
{
	char path[SYSSTAT_PATH_MAX], *text, *zone;
	long cols = 0;

	path_of(path, sizeof(path), proc_root, "/proc", "buddyinfo");
	text = read_path(path);
	/* "Node 0, zone   Normal   c0 c1 ... cN": N+3 words from "zone" */
	zone = text ? strstr(text, "zone") : NULL;
	if (zone)
		zone[strcspn(zone, "\n")] = '\0';
	for (char *t = zone ? strtok(zone, " \t") : NULL; t; t = strtok(NULL, " \t"))
		cols++;
	free(text);
	return cols > 3 ? cols - 3 : -1;
}

static void boot_id(const char *proc_root, char *out, size_t len)
{
	char path[SYSSTAT_PATH_MAX], *text;

	path_of(path, sizeof(path), proc_root, "/proc", "sys/kernel/random/boot_id");
	text = read_path(path);
	if (text)
		snprintf(out, len, "%.*s", (int)strcspn(text, "\n"), text);
	else
		snprintf(out, len, "unknown");
	free(text);
}

/* The order saved in the state file for this boot, or -1. */
static long saved_order(int fd, const char *proc_root)
{
	char line[STATE_LINE], boot[64], here[64];
	ssize_t n = pread(fd, line, sizeof(line) - 1, 0);
	long order;

	if (n <= 0)
		return -1;
	line[n] = '\0';
	boot_id(proc_root, here, sizeof(here));
	if (sscanf(line, "%ld %63s", &order, boot) != 2 || order < 0 || strcmp(boot, here) != 0)
		return -1;
	return order;
}

static int save_order(int fd, const char *proc_root, long order)
{
	char line[STATE_LINE], boot[64];
	int n;

	boot_id(proc_root, boot, sizeof(boot));
	n = snprintf(line, sizeof(line), "%ld %s\n", order, boot);
	if (ftruncate(fd, 0) < 0 || pwrite(fd, line, (size_t)n, 0) != n)
		return -errno;
	return fsync(fd) < 0 ? -errno : 0;
}

/* Put back the saved order, if any; the caller holds the file exclusively. */
static int put_back(int fd, const char *order_path, const char *proc_root)
{
	long saved = saved_order(fd, proc_root);
	int did = 0;

	if (saved >= 0 && write_long_at(order_path, saved) == 0)
		did = 1;
	if (ftruncate(fd, 0) == 0)
		(void)fsync(fd);
	return did;
}

int pagereport_pause(struct pagereport_hold *h, const char *sys_root, const char *proc_root,
		     const char *state_path)
{
	struct page_reporting p;
	long paused, cur, saved;

	*h = (struct pagereport_hold){ .fd = -1, .order_before = -1, .order_paused = -1 };
	snprintf(h->proc_root, sizeof(h->proc_root), "%s", proc_root ? proc_root : "");
	if (sysstat_page_reporting_read(sys_root, &p) < 0 || !p.on)
		return 0;
	h->on = true;
	path_of(h->order_path, sizeof(h->order_path), sys_root, "/sys",
		"module/page_reporting/parameters/page_reporting_order");
	if ((paused = largest_order(proc_root)) < 0) {
		snprintf(h->why, sizeof(h->why), "the kernel's largest block is not known (no buddyinfo)");
		return 0;
	}
	paused += 1;
	h->fd = open(state_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (h->fd < 0) {
		int e = errno;

		snprintf(h->why, sizeof(h->why), "%.200s: %s", state_path, strerror(e));
		return -e;
	}
	for (int tries = 0; tries < 5; tries++) {
		if (flock(h->fd, LOCK_EX | LOCK_NB) == 0) {
			/* no live holder: what a dead one saved is the order to put back */
			cur = file_read_long(h->order_path);
			saved = saved_order(h->fd, proc_root);
			h->order_before = saved >= 0 ? saved : cur;
			if (cur < 0) {
				snprintf(h->why, sizeof(h->why), "%.200s cannot be read", h->order_path);
				break;
			}
			if (cur != paused) {
				int rc = saved >= 0 ? 0 : save_order(h->fd, proc_root, cur);

				if (rc == 0)
					rc = write_long_at(h->order_path, paused);
				if (rc < 0) {
					snprintf(h->why, sizeof(h->why), "the kernel refuses page_reporting_order %ld (%s)",
						 paused, strerror(-rc));
					put_back(h->fd, h->order_path, proc_root);
					break;
				}
			}
			h->by_us = cur != paused || saved >= 0;
			h->found_paused = !h->by_us;
			h->paused = true;
			h->order_paused = paused;
			(void)flock(h->fd, LOCK_SH);
			return 0;
		}
		/* another eicbench holds it: share it while it is paused */
		if (flock(h->fd, LOCK_SH) < 0)
			break;
		if (file_read_long(h->order_path) == paused) {
			h->paused = true;
			h->order_paused = paused;
			h->order_before = saved_order(h->fd, proc_root);
			return 0;
		}
		(void)flock(h->fd, LOCK_UN);   /* it let go meanwhile: again */
	}
	if (!h->why[0])
		snprintf(h->why, sizeof(h->why), "the state file %.200s stayed locked", state_path);
	close(h->fd);
	h->fd = -1;
	h->order_before = -1;
	return 0;
}

static long long meminfo_kib(const char *proc_root, const char *key)
{
	char path[SYSSTAT_PATH_MAX], *text, *at;
	size_t klen = strlen(key);
	long long v = -1;

	path_of(path, sizeof(path), proc_root, "/proc", "meminfo");
	text = read_path(path);
	for (at = text; at && *at; at = strchr(at, '\n'), at = at ? at + 1 : NULL)
		if (strncmp(at, key, klen) == 0 && at[klen] == ':') {
			v = atoll(at + klen + 1);
			break;
		}
	free(text);
	return v;
}

void pagereport_back(struct pagereport_hold *h, const char *proc_root, uint64_t want)
{
	long long total = meminfo_kib(proc_root, "MemTotal");
	uint64_t reserve = BACK_RESERVE, got = 0;
	size_t n = 0, max = (size_t)((want + BACK_CHUNK - 1) / BACK_CHUNK);
	void **chunks;
	double t0;

	h->backed_mib = 0;
	h->backed_s = 0;
	/* what was reported before a pause found in place may be the host's */
	if (!pagereport_gives_back(h) || want == 0 || total < 0)
		return;
	if ((uint64_t)total * 1024 / 20 > reserve)
		reserve = (uint64_t)total * 1024 / 20;
	chunks = calloc(max, sizeof(*chunks));
	if (!chunks)
		return;
	t0 = clock_now_s();
	while (got < want && n < max) {
		long long avail = meminfo_kib(proc_root, "MemAvailable");
		void *p;

		if (avail < 0 || (uint64_t)avail * 1024 < reserve + BACK_CHUNK)
			break;
		p = mmap(NULL, BACK_CHUNK, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			break;
		chunks[n++] = p;
		got += BACK_CHUNK;
	}
	for (size_t i = 0; i < n; i++)
		munmap(chunks[i], BACK_CHUNK);
	free(chunks);
	h->backed_mib = (double)got / 1048576.0;
	h->backed_s = clock_now_s() - t0;
}

void pagereport_release(struct pagereport_hold *h)
{
	if (h->fd < 0)
		return;
	if (flock(h->fd, LOCK_EX | LOCK_NB) == 0)
		put_back(h->fd, h->order_path, h->proc_root[0] ? h->proc_root : NULL);
	close(h->fd);
	h->fd = -1;
}

int pagereport_recover(const char *sys_root, const char *proc_root, const char *state_path)
{
	char order_path[SYSSTAT_PATH_MAX];
	int fd = open(state_path, O_RDWR | O_CLOEXEC), did = 0;

	if (fd < 0)
		return 0;
	path_of(order_path, sizeof(order_path), sys_root, "/sys",
		"module/page_reporting/parameters/page_reporting_order");
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		did = put_back(fd, order_path, proc_root);
	close(fd);
	return did;
}
