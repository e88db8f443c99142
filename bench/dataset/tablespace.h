/*
 * tablespace: the data set on any folder. A folder given for the data set
 * (load --tablespace-dir) is checked first, nothing changed (a folder, or
 * missing in one that is there; not /; empty unless a tablespace of this
 * cluster is there; reachable by the server's user), and only then made
 * when missing, given to the server's user, and made a tablespace (or the
 * one already there reused), named eicbench_ and the folder's name.
 * Where a data set lives is read from the catalog (tablespace.sql files):
 * its tablespace's name and folder (the data directory's for pg_default),
 * and that folder checked to be there (a FUSE mount whose emulator was
 * killed is said, with how to clean it). Returns 0, -EINVAL for bad input
 * (exit 2) or another -errno, with a caller-owned message; never prints.
 */
#ifndef BENCH_DATASET_TABLESPACE_H
#define BENCH_DATASET_TABLESPACE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <libpq-fe.h>

#include "bench/pg/server.h"

#define TABLESPACE_DEFAULT "pg_default"

struct tablespace {
	char name[128];               /* "pg_default" for the database's default */
	char location[PATH_MAX];      /* its folder; the data directory for pg_default */
	bool created;                 /* made by this call */
};

/*
 * The tablespace at DIR (as given by the user) on S through C: found, or
 * made after the folder's checks. -EINVAL naming DIR: not absolute-able,
 * its FUSE mount gone, its parent missing, the server's user cannot reach
 * it, not empty and no tablespace of this cluster.
 */
int tablespace_prepare(const struct server *s, PGconn *c, const char *dir,
		       struct tablespace *out, char *err, size_t errlen);

/*
 * Where the data set (test, test_pkey, minor_idx) lives: 1 found (OUT
 * filled; LOCATION the data directory's own for pg_default, DATADIR when
 * given, else the server's data_directory), 0 no data set, -errno.
 */
int tablespace_of_dataset(PGconn *c, const char *datadir, struct tablespace *out,
			  char *err, size_t errlen);

/* The tablespace of RELATION (any name to_regclass takes), from the
 * catalog alone: 1 found (LOCATION "" for the data directory's), 0 no
 * such relation, -errno. */
int tablespace_of_relation(PGconn *c, const char *relation, struct tablespace *out,
			   char *err, size_t errlen);

/* 0 when TS's folder can be reached here; -EINVAL (a gone mount said with
 * how to clean it) when not. */
int tablespace_reachable(const struct tablespace *ts, char *err, size_t errlen);

#endif
