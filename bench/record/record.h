/*
 * record: result folders and the records in them, the only interface between
 * running and reporting. A folder is results/<UTC YYYYmmddTHHMMSSZ>-<command>
 * and is never reused; meta.json and CSV files are replaced atomically;
 * trials.jsonl grows by one whole JSON line per record (one write, fsync'd),
 * and a reader ignores a torn last line left by a crash. Nothing written here
 * may hold a secret: DSNs, command lines and messages pass through the
 * redactor (bench/cli/redact.h) first.
 */
#ifndef BENCH_RECORD_RECORD_H
#define BENCH_RECORD_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>
#include <jansson.h>

#include "io/sampler.h"
#include "io/sysstat.h"

#define RECORD_META      "meta.json"
#define RECORD_TRIALS    "trials.jsonl"
#define RECORD_PARENT    "results"
#define RECORD_KEY_FIELD "trial_key"     /* suggested key field for resume */
#define RECORD_LOCK      ".eicbench.lock" /* the folder's lock (bench/pg/lock.h) */
#define RECORD_KEY_MAX   512             /* a trial's key, with its NUL */
#define RECORD_STEPS_MAX 64              /* steps of a plan a folder holds */

/*
 * Make a new result folder and put its path in PATH_OUT. With EXPLICIT_OUT
 * (--out) that folder, which must not exist or be empty (but for a lock
 * file left by an earlier command); otherwise
 * PARENT (default "results")/<timestamp>-COMMAND, adding -2, -3 ... when
 * taken. Missing parents are made. 0 or -errno with ERR filled.
 */
int record_dir_create(const char *parent, const char *command,
		      const char *explicit_out, char *path_out, size_t len,
		      char *err, size_t errlen);
/* The same at a given time (for tests and for one stamp per run). */
int record_dir_create_at(const char *parent, const char *command,
			 const char *explicit_out, time_t when,
			 char *path_out, size_t len, char *err, size_t errlen);

/* Replace PATH with DATA atomically: temporary file, fsync, rename, fsync dir. */
int record_write_file_atomic(const char *path, const void *data, size_t len,
			     char *err, size_t errlen);

/* Render with RENDER(ARG, F) into memory, then write PATH atomically. The
 * renderer's -errno (or -ENOMEM) is returned with ERR naming PATH. */
int record_write_rendered(const char *path, int (*render)(const void *arg, FILE *f),
			  const void *arg, char *err, size_t errlen);

/* DIR/meta.json from META, indented, atomically. */
int record_meta_write(const char *dir, const json_t *meta, char *err, size_t errlen);

/*
 * Add to META: "host" (hostname, kernel, cpu_model, cpu_count, memory_bytes,
 * free_page_reporting: null, or on, order and reported_kib),
 * "git_rev" (EICBENCH_GIT_REV from the build, else "unknown"), "command_line"
 * (ARGV through redact_arg()) and "started_utc" (STARTED). 0 or
 * -ENOMEM.
 */
int record_meta_host(json_t *meta, int argc, char *const argv[], time_t started);

/*
 * The head of every result folder's meta.json, made in one place: "command",
 * then record_meta_host()'s members (started now), then the target
 * ("datadir", or "dsn" redacted) when given, then "device" when asked for:
 * DEV when known, else the device under DEVICE_PATH (null when it is NULL or
 * unknown). A command
 * adds its own members after these and writes it with record_meta_write().
 */
struct record_head {
	const char  *command;          /* "sweep", "probe", "tpcb run", "run" */
	int          argc;             /* the whole command line */
	char *const *argv;
	const char  *datadir;          /* the managed cluster's, or NULL */
	const char  *dsn;              /* a --dsn server's (redacted here), or NULL */
	bool         device;           /* record "device" */
	const char  *device_path;      /* the path whose device it is, or NULL */
	const struct device_info *dev; /* the device looked up already (record_device_at), or NULL */
};

/* A new meta object from H (NULL on a failed allocation); DEV, when given,
 * gets the device found (its name "" when none). */
json_t *record_meta_new(const struct record_head *h, struct device_info *dev);

/* The device under PATH for a record (null when unknown), and into DEV when
 * given (its name "" when unknown). The one lookup of a folder's device. */
json_t *record_device_at(const char *path, struct device_info *dev);

/* WHEN as "YYYY-mm-ddTHH:MM:SSZ". */
void record_utc_iso(time_t when, char *buf, size_t len);

/* What DEVICE did between two /proc/diskstats snapshots, for a record. */
json_t *record_disk_json(const char *device, const struct disk_delta *d);

/* Where pid J of SM ran over [T0, T1] and where the device's interrupts
 * went (io/irqcpu.h, sampler_placement_window): "on_irq_cpu" (null when
 * unknown), each CPU's share of the reader's time ("reader_share", null
 * without it) and its interrupts ("irqs", null without them); null when
 * the window has no placement (too short, the pid never read). */
json_t *record_placement_window(const struct sampler *sm, int j, uint64_t t0, uint64_t t1);

/* The device under the data directory; absent values (-1, "") are null; a
 * published (emulated) device adds "published" and "emulated", its model. */
json_t *record_device_json(const struct device_info *dev);

/*
 * Append OBJ as one compact line to DIR/FILE with a single O_APPEND write,
 * then fsync. A torn last line left by an earlier crash is cut off first
 * (readers already ignore it), so a file has one writer at a time.
 * 0 or -errno with ERR filled.
 */
int record_append(const char *dir, const char *file, const json_t *obj,
		  char *err, size_t errlen);

/*
 * Read every whole line of DIR/FILE into a new array of objects. A last line
 * without a newline is torn: it is skipped, *TORN_OUT set to 1 and ERR
 * describes it while 0 is returned. A bad line before that is -EINVAL naming
 * its line number; a missing file is -ENOENT; one that cannot be read (no
 * permission, an I/O error, not a regular file: a FIFO is never waited on)
 * is -EINVAL too, the folder being bad input.
 */
/* As root under sudo, give every entry of DIR (not below) to the user who
 * ran sudo (SUDO_UID, SUDO_GID), as the record writers do with their own
 * files: for files other programs wrote there (plots, logs). 0 or -errno. */
int record_settle_owner(const char *dir);

/* Is DIR's meta.json that of the command CMD ("run", "confsweep")? */
int record_folder_is(const char *dir, const char *cmd);

int record_load(const char *dir, const char *file, json_t **array_out,
		int *torn_out, char *err, size_t errlen);

/*
 * Which of the PLANNED keys some record already carries as string field
 * KEYFIELD: DONE_OUT[i] is set for each. Returns how many are done, or
 * -EINVAL / -ENOMEM. O((n + m) log n).
 */
int record_done_keys(const json_t *records, const char *keyfield,
		     const char *const *planned, size_t nplanned, bool *done_out);

/*
 * Write ROWS (an array of objects) as CSV with a header of COLUMNS, one row
 * per object, atomically. A column "a.b" reaches into nested objects when
 * there is no key "a.b". Missing and null are empty; numbers plain (integers
 * as integers, reals in the fewest digits that read back exactly); fields
 * with commas, quotes, line breaks or edge spaces are quoted.
 */
int record_write_csv(const char *path, const json_t *rows,
		     const char *const *columns, size_t ncolumns,
		     char *err, size_t errlen);

#endif
