/*
 * sysstat: snapshots of /proc/diskstats, /proc/stat and /proc/PID/stat, their
 * differences, and the block device that holds a path (with its queue
 * settings from /sys/block). Read-only; knows nothing of PostgreSQL.
 * Counters are kept as the kernel gives them (sectors of 512 bytes, ticks of
 * USER_HZ, milliseconds); the *_diff helpers turn two snapshots into rates.
 */
#ifndef IO_SYSSTAT_H
#define IO_SYSSTAT_H

#include <stdint.h>
#include <sys/types.h>

#define SYSSTAT_NAME_MAX    64
#define SYSSTAT_MAX_MEMBERS 16

/* One line of /proc/diskstats. */
struct disk_snap {
	char     name[SYSSTAT_NAME_MAX];
	uint64_t reads, reads_merged, read_sectors, read_ms;
	uint64_t writes, writes_merged, write_sectors, write_ms;
	uint64_t in_flight, io_ms, weighted_ms;
	uint64_t taken_ns;              /* CLOCK_MONOTONIC when read */
};

/* What the device did between two snapshots. */
struct disk_delta {
	double   elapsed_s;
	uint64_t reads, reads_merged, read_bytes;
	uint64_t writes, write_bytes;
	double   avg_read_kib;         /* read_bytes / reads / 1024, 0 if no reads */
	double   avg_queue_depth;      /* weighted_ms / elapsed ms (aqu-sz) */
	double   util_pct;             /* io_ms / elapsed ms * 100 */
	double   read_await_ms;        /* read_ms / reads */
};

/* /proc/stat "cpu" line, in ticks. */
struct cpu_snap {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
	int      ncpu;
};

struct cpu_delta {
	double user_pct, system_pct, iowait_pct, idle_pct;  /* of all CPUs */
	double steal_pct;       /* taken by the hypervisor for others, of all CPUs */
};

/* /proc/PID/stat utime and stime, in ticks. */
struct proc_snap {
	uint64_t utime, stime;
	uint64_t taken_ns;
};

struct proc_delta {
	double user_s, system_s;
	double cpu_share;              /* (user+system) / elapsed, 1.0 = one core */
};

/* The device under a path, and its queue settings. Absent values are -1 / "". */
struct device_info {
	char name[SYSSTAT_NAME_MAX];      /* as in /proc/diskstats, e.g. "vda" */
	char disk[SYSSTAT_NAME_MAX];      /* the whole disk, e.g. "vda" for "vda1" */
	char model[128];                  /* device/model; virtio: "virtio block device" */
	char vendor[64];                  /* device/vendor, as the kernel has it */
	char transport[32];               /* "nvme", "virtio", "ata", "usb", "scsi", ... */
	long long size_bytes;             /* the whole disk's size, -1 if unknown */
	char scheduler[32];               /* the selected one, without brackets */
	int  rotational;
	long nr_requests;
	long read_ahead_kb;
	long max_sectors_kb;              /* the largest request the kernel sends */
	long logical_block_size;
	char fstype[32];                  /* of the mount holding the path */
	/* For md and dm devices, the devices underneath, down to the ones
	 * with no members of their own (as named in /proc/diskstats). */
	int  nmembers;
	char members[SYSSTAT_MAX_MEMBERS][SYSSTAT_NAME_MAX];
};

/* Parse one /proc/diskstats text for device NAME. 0, or -ENOENT if absent. */
int sysstat_disk_parse(const char *text, const char *name, struct disk_snap *out);
int sysstat_disk_read(const char *name, struct disk_snap *out);
void sysstat_disk_diff(const struct disk_snap *a, const struct disk_snap *b,
		       struct disk_delta *out);

int sysstat_cpu_parse(const char *text, struct cpu_snap *out);
int sysstat_cpu_read(struct cpu_snap *out);
void sysstat_cpu_diff(const struct cpu_snap *a, const struct cpu_snap *b,
		      struct cpu_delta *out);

/* Parse the text of /proc/PID/stat (the comm field may hold spaces and ')'). */
int sysstat_proc_parse(const char *text, struct proc_snap *out);
int sysstat_proc_read(pid_t pid, struct proc_snap *out);
void sysstat_proc_diff(const struct proc_snap *a, const struct proc_snap *b,
		       struct proc_delta *out);

/* The block device holding PATH (via stat() st_dev and /sys/dev/block),
 * its queue settings, members and the file system type under PATH. */
int sysstat_device_for_path(const char *path, struct device_info *out);

/* The file system type of the mount holding PATH (even a device node's),
 * into OUT; "unknown" if not found. */
void sysstat_fstype_for_path(const char *path, char *out, size_t len);

/* The file system type of the mount holding PATH, from MOUNTINFO_TEXT (the
 * text of /proc/self/mountinfo) for device MAJ:MIN; "unknown" if not found. */
void sysstat_fstype_parse(const char *mountinfo_text, unsigned maj, unsigned min,
			  char *out, size_t len);

#endif
