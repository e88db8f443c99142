/*
 * lock: one exclusive lock per cluster and one per result folder, so two
 * commands never stop, start, load, change the settings of, or write into
 * the same thing at once. A lock is flock(LOCK_EX | LOCK_NB) on a file:
 * DATADIR/eicbench.lock for the managed cluster, a file in the state folder
 * (bench/pg/statedir.h) named after the server for a --dsn one, and
 * DIR/.eicbench.lock for a result folder. It goes with the process: a
 * killed holder leaves no stale lock, and a lock file left behind is simply
 * taken again. The holder writes who it is into the file (pid, command,
 * UTC start), so a refused command can name it. Files are opened relative
 * to the directory's descriptor with O_NOFOLLOW: a symbolic link or a hard
 * link planted under the name is refused, never written through (root-safe
 * in a directory another user owns; as root the file is given to the
 * directory's owner). The descriptor is close-on-exec, so programs run by
 * the holder never keep the lock; a child forked without exec keeps it
 * until it exits too. lock_cluster and lock_folder refuse a lock this
 * process holds already like any other (-EBUSY); the registry below is the
 * one place that grants a thing held already.
 */
#ifndef BENCH_PG_LOCK_H
#define BENCH_PG_LOCK_H

#include <limits.h>
#include <stddef.h>

#include "bench/pg/server.h"

#define LOCK_CLUSTER_FILE "eicbench.lock"

struct lock {
	int  fd;                /* -1 when not held */
	char path[PATH_MAX];
};

#define LOCK_INIT { .fd = -1 }

/*
 * Take the lock of S's cluster for WHO (the holder's command line, e.g.
 * from redact_cmdline()). The managed cluster's data directory must
 * exist (take it after `server init` made it: initdb wants an empty
 * directory). A --dsn server is known by its identity (bench/pg/identity.h:
 * system identifier and data directory, asked of the server), so every
 * spelling of its string shares its lock; a cluster on this machine takes
 * DATADIR/eicbench.lock, the lock --datadir takes. A server that cannot be
 * reached is known by host, hostaddr, port and service as libpq resolves
 * them (the environment included).
 * 0; -EBUSY when another process holds it, ERR then naming the holder:
 * "the cluster in /data/pg is in use: held by pid 1234, eicbench sweep
 * --datadir /data/pg, since 2026-12-01T11:00:00Z" (the caller exits 3);
 * -ELOOP for a symbolic link at the lock's name, -EMLINK for a file with
 * other hard links, -ENOENT for a missing directory, another -errno; ERR
 * filled in every case. L is not held after a failure.
 */
int lock_cluster(const struct server *s, const char *who, struct lock *l,
		 char *err, size_t errlen);

/* The same for the result folder DIR (DIR/RECORD_LOCK of bench/record/record.h). */
int lock_folder(const char *dir, const char *who, struct lock *l,
		char *err, size_t errlen);

/* Give the lock up (its file stays, emptied, for the next taker). Safe to
 * repeat, after a failed take, and on a lock set to LOCK_INIT. */
void lock_release(struct lock *l);

/*
 * The locks a command holds until its process ends, in one registry: the
 * holder's line is set once (lock_set_holder, from the command line,
 * redacted), then lock_hold_cluster and lock_hold_folder take S's cluster
 * or DIR for good. Holding a thing this process holds already is granted
 * (the same lock: a command's steps may each ask for what they work on),
 * and so is one a command that ran this one holds (the pid its lock file
 * names is this process's parent, or an ancestor further up: a
 * --restart-cmd that runs eicbench server restart on the cluster a sweep
 * of the --dsn server holds). A
 * managed cluster not made yet (no PG_VERSION) needs no lock: 0. 0;
 * -EBUSY when another command holds it (the command exits 3, busy),
 * -EINVAL when the lock file is unsafe (exit 2), another -errno; ERR says
 * which.
 */
void lock_set_holder(int argc, char *const argv[]);
int lock_hold_cluster(const struct server *s, char *err, size_t errlen);
int lock_hold_folder(const char *dir, char *err, size_t errlen);

/* A new result folder (record_dir_create(): OUT, else
 * results/<UTC>-COMMAND) into DIR, held as above: every command that makes
 * one makes it here. 0; -EINVAL when OUT is there already, -EBUSY when
 * another command holds it; -errno. */
int lock_hold_new_folder(const char *command, const char *out, char *dir, size_t len,
			 char *err, size_t errlen);

#endif
