/*
 * pgbin: where PostgreSQL's server binaries are, and which version they are.
 * A major version's bindir is looked up in eicbench's build cache first
 * (what scripts/build-pg.sh installs, CACHE/pg/MAJOR.MINOR/bin, the newest
 * finished build), then in Debian's /usr/lib/postgresql/MAJOR/bin.
 * Version numbers are PostgreSQL's server_version_num (18.6 is 180006,
 * 9.6.24 is 90624). No processes are run here; functions return 0 or -errno.
 */
#ifndef BENCH_PG_PGBIN_H
#define BENCH_PG_PGBIN_H

#include <stdbool.h>
#include <stddef.h>

/* The file a finished build leaves in its prefix (scripts/build-pg.sh). */
#define PGBIN_BUILD_STAMP "eicbench-build.json"

/*
 * The build cache: $EICBENCH_CACHE, else /var/cache/eicbench as root, else
 * ${XDG_CACHE_HOME:-$HOME/.cache}/eicbench (the rule of scripts/build-pg.sh).
 */
int pgbin_cache_dir(char *out, size_t len);

/* Does DIR hold postgres and initdb, both executable? */
bool pgbin_has_tools(const char *dir);

/* The bindir of MAJOR: the build cache, then Debian's. -ENOENT if neither. */
int pgbin_find_major(int major, char *out, size_t len);

/* The newest major version on this machine, installed (Debian's) or
 * built (the build cache), with WHY listing both; -ENOENT if none. */
int pgbin_newest_major(char *why, size_t len);

/* The newest /usr/lib/postgresql/N/bin holding a server. -ENOENT if none. */
int pgbin_newest_debian(char *out, size_t len);

/*
 * The version in TEXT: "postgres (PostgreSQL) 18.6", "15.18 (Debian ...)",
 * a PG_VERSION file's "9.6" or "18", "19devel", "18beta1". Returns the
 * version number (> 0) or -EINVAL.
 */
int pgbin_parse_version(const char *text);

/* The major version of a version number: 18 for 180006, 906 for 90624. */
int pgbin_major(int version_num);

/* "18.6" or "9.6.24" for a version number. */
void pgbin_version_str(int version_num, char *out, size_t len);

#endif
