/*
 * statedir: eicbench's state folder, for what outlives a command and
 * belongs to no result folder or cluster directory (a --dsn server's
 * settings journal and lock): $EICBENCH_STATE when set, else
 * /var/lib/eicbench as root, else $XDG_STATE_HOME/eicbench, else
 * ~/.local/state/eicbench, made (mode 0700) when missing. Files in it are
 * named by a hash of what they belong to.
 */
#ifndef BENCH_PG_STATEDIR_H
#define BENCH_PG_STATEDIR_H

#include <stddef.h>

/* The state folder into OUT, made when missing. 0, -ENOENT (not root, and
 * none of EICBENCH_STATE, XDG_STATE_HOME and HOME set), -ENAMETOOLONG, or
 * mkdir's -errno. */
int statedir_path(char *out, size_t len);

/* OUT = the state folder's PREFIX-<16 hex digits of KEY's FNV-1a 64-bit
 * hash>SUFFIX, the folder made when missing. As statedir_path(). */
int statedir_file(const char *prefix, const char *key, const char *suffix,
		  char *out, size_t len);

/* FNV-1a, 64 bits, of S. */
unsigned long long statedir_hash(const char *s);

#endif
