/*
 * record: result folders and the records in them, the only interface between
 * running and reporting. A folder is results/<UTC YYYYmmddTHHMMSSZ>-<command>
 * and is never reused; meta.json and CSV files are replaced atomically;
 * trials.jsonl grows by one whole JSON line per record (one write, fsync'd),
 * and a reader ignores a torn last line left by a crash. Nothing written here
 * may hold a secret: DSNs, command lines and messages pass through the
 * redactor (record_redact_*).
 */
#ifndef BENCH_RECORD_H
#define BENCH_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>
#include <jansson.h>

#include "io/sysstat.h"

#define RECORD_META      "meta.json"
#define RECORD_TRIALS    "trials.jsonl"
#define RECORD_PARENT    "results"
#define RECORD_KEY_FIELD "trial_key"     /* suggested key field for resume */
#define RECORD_LOCK      ".eicbench.lock" /* the folder's lock (bench/lock.h) */

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
 * Add to META: "host" (hostname, kernel, cpu_model, cpu_count, memory_bytes),
 * "git_rev" (EICBENCH_GIT_REV from the build, else "unknown"), "command_line"
 * (ARGV through record_redact_arg()) and "started_utc" (STARTED). 0 or
 * -ENOMEM.
 */
int record_meta_host(json_t *meta, int argc, char *const argv[], time_t started);

/* WHEN as "YYYY-mm-ddTHH:MM:SSZ". */
void record_utc_iso(time_t when, char *buf, size_t len);

/* What DEVICE did between two /proc/diskstats snapshots, for a record. */
json_t *record_disk_json(const char *device, const struct disk_delta *d);

/* The device under the data directory; absent values (-1, "") are null. */
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
 * its line number; a missing file is -ENOENT.
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

/*
 * Secrets (bench/record_redact.c). libpq's options that hold one are
 * password, sslpassword, oauth_client_secret, scram_client_key and
 * scram_server_key; names match whatever their case.
 *
 * Copy DSN to OUT without any secret: those options' key=value pairs
 * (quoted or bare values, \ escapes, spaces around '='), and in a
 * postgres:// or postgresql:// URI the password of user:secret@ and any
 * ?key=value whose key, percent-decoded, is one of them. 0, or -ENOSPC
 * when OUT was too small (it then holds a cut copy; a LEN of strlen(dsn) +
 * 1 always suffices).
 */
int record_redact_dsn(const char *dsn, char *out, size_t len);

/*
 * A new copy of one command-line argument (or of a whole --restart-cmd)
 * with its secrets replaced by "***", or NULL when out of memory. An
 * argument that reads as a connection string (a URI, or key=value pairs
 * libpq takes, not all of them secrets), alone or after --flag=, goes
 * through record_redact_dsn(). Elsewhere, as in free text: NAME=value where NAME is a libpq secret or
 * holds "password", "passwd", "passphrase", "secret" or "token" (PGPASSWORD=,
 * --password=, db_secret=; not a name ending in "file" or "path", such as
 * PGPASSFILE or --password-file), and the user:secret@ and secret query
 * parameters of URIs. A word after a bare --password flag is not touched
 * (tools differ: psql's takes none).
 */
char *record_redact_arg(const char *arg);

/* ARGV[0..ARGC) redacted one by one into a new NULL-terminated array, or
 * NULL when out of memory; free it with record_redact_argv_free(). */
char **record_redact_argv(int argc, char *const argv[]);
void record_redact_argv_free(char **v);

/* ARGV redacted, joined by spaces into OUT, e.g. to name a lock's holder;
 * an argument that is empty or holds white space, a quote or a backslash
 * is put in single quotes. 0, -ENOSPC (OUT holds a cut line), -ENOMEM. */
int record_redact_cmdline(int argc, char *const argv[], char *out, size_t len);

/*
 * MSG (e.g. libpq's error, which can echo a connection string) into OUT
 * with the secrets of record_redact_arg()'s free text replaced by "***";
 * with DSN (the connection string the message is about; NULL: none), also
 * every appearance of one of its secret values, as written or as libpq
 * decodes it, of 4 characters or more. 0, -ENOSPC (cut), -ENOMEM.
 */
int record_redact_message(const char *msg, const char *dsn, char *out, size_t len);

#endif
