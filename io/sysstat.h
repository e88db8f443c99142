/*
 * sysstat: snapshots of /proc/diskstats, /proc/stat, /proc/PID/stat and
 * /proc/PID/schedstat, their differences, and the block device that holds a path (with its queue
 * settings from /sys/block), and whether the host takes the guest's free
 * memory back (free page reporting). Read-only; knows nothing of PostgreSQL.
 * Counters are kept as the kernel gives them (sectors of 512 bytes, ticks of
 * USER_HZ, milliseconds; schedstat's nanoseconds); the *_diff helpers turn
 * two snapshots into rates.
 */
#ifndef IO_SYSSTAT_H
#define IO_SYSSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define SYSSTAT_NAME_MAX    64
#define SYSSTAT_MAX_MEMBERS 16
#define SYSSTAT_PATH_MAX    4096

/*
 * A file system with no block device under it (a FUSE emulation) may
 * publish one in a folder of this name at its mount's root: "diskstats",
 * the device and then its members as /proc/diskstats lines, "model", one
 * line saying what it is, and "queue", lines "nr_requests N",
 * "max_sectors_kb N", "logical_block_size N". sysstat_device_for_path
 * finds it there.
 */
#define SYSSTAT_PUBLISHED_DIR ".eicbench"

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
	int      processor;             /* the CPU it last ran on; -1 if unknown */
	uint64_t taken_ns;
};

struct proc_delta {
	double user_s, system_s;
	double cpu_share;              /* (user+system) / elapsed, 1.0 = one core */
	/* From schedstat (ns), when have_sched: on a CPU, and runnable but
	 * waiting for one; their sum never exceeds the window. */
	bool   have_sched;
	double oncpu_s, runqueue_s;
};

/* /proc/PID/schedstat (or /proc/thread-self/schedstat): the time the task
 * ran on a CPU and the time it waited on a run queue for one, in ns (the
 * scheduler's own clock, not ticks), and how many times it was scheduled. */
struct sched_snap {
	uint64_t oncpu_ns, runqueue_ns, slices;
	uint64_t taken_ns;
};

/* Parse the text of a schedstat file: three numbers. 0 or -EINVAL. */
int sysstat_sched_parse(const char *text, struct sched_snap *out);
/* PID's, or with PID 0 the calling thread's. -ENOENT without schedstats. */
int sysstat_sched_read(pid_t pid, struct sched_snap *out);

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
	/* A published device: the folder it publishes in, and the file its
	 * counters are read from instead of /proc/diskstats ("" for a block
	 * device). */
	char published[SYSSTAT_PATH_MAX];
	char stats_file[SYSSTAT_PATH_MAX];
};

/* Parse one /proc/diskstats text for device NAME. 0, or -ENOENT if absent. */
int sysstat_disk_parse(const char *text, const char *name, struct disk_snap *out);
int sysstat_disk_read(const char *name, struct disk_snap *out);
/* The same from FILE, a text in /proc/diskstats's format (NULL or "": /proc/diskstats). */
int sysstat_disk_read_file(const char *file, const char *name, struct disk_snap *out);
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

/*
 * Free page reporting: a virtio balloon (device id 0x0005) that offers
 * VIRTIO_BALLOON_F_REPORTING (feature bit 5) hands the guest's free memory
 * back to its host, so a page the kernel takes for the page cache after a
 * drop of the caches may first have to be given memory again by the host.
 * ON: such a balloon is there. ORDER: the smallest block reported (2^order
 * pages, mm's page_reporting_order), -1 unknown. REPORTED_KIB: what was
 * reported since boot where the kernel counts it, -1 elsewhere.
 */
struct page_reporting {
	bool      on;
	long      order;
	long long reported_kib;
};

/* Page reporting as seen under SYS_ROOT (NULL: "/sys"). 0, or -errno when
 * SYS_ROOT has no virtio bus (OUT then says off). */
int sysstat_page_reporting_read(const char *sys_root, struct page_reporting *out);

/* The block device holding PATH (via stat() st_dev and /sys/dev/block),
 * its queue settings, members and the file system type under PATH; or the
 * device a file system with none publishes (SYSSTAT_PUBLISHED_DIR). */
int sysstat_device_for_path(const char *path, struct device_info *out);

/* The file system type of the mount holding PATH (even a device node's),
 * into OUT; "unknown" if not found. */
void sysstat_fstype_for_path(const char *path, char *out, size_t len);

/* The file system type of the mount holding PATH, from MOUNTINFO_TEXT (the
 * text of /proc/self/mountinfo) for device MAJ:MIN; "unknown" if not found. */
void sysstat_fstype_parse(const char *mountinfo_text, unsigned maj, unsigned min,
			  char *out, size_t len);

#endif
