/*
 * outdir: a folder to write results into (--out), checked when the option
 * is read, before anything else happens: not empty text, not too long for
 * the files that go in it, not a file; and, as root under sudo, a place the
 * user who ran sudo could make and write it themselves (their access is
 * asked by a child that takes their ids), since what is made there becomes
 * theirs. Makes nothing.
 */
#ifndef BENCH_CLI_OUTDIR_H
#define BENCH_CLI_OUTDIR_H

#include <stddef.h>
#include <sys/types.h>

/* Room left in a path for the files a result folder holds
 * (".trials.jsonl.tmp.PID" and the like). */
#define OUTDIR_ROOM 256

/* 0, or -EINVAL with ERR naming FLAG ("--out"), the value and what is
 * allowed. PATH holds no control character (the option parser refuses
 * those first). */
int outdir_check(const char *flag, const char *path, char *err, size_t errlen);

/* As root under sudo, the user who ran sudo (SUDO_UID, SUDO_GID, a user
 * other than root): 0 with the ids, else -1. */
int outdir_sudo_ids(uid_t *uid, gid_t *gid);

#endif
