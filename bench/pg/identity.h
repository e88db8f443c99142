/*
 * identity: which cluster a --dsn server is, whatever its connection
 * string's spelling (keys in another order, a URI, another database or
 * user): its system identifier (pg_control_system()) and data directory,
 * read from the server itself, as one key. The data directory is local
 * when this machine holds it: its global/pg_control starts with the same
 * system identifier. A managed cluster is known by its data directory and
 * needs none of this. Returns 0 or -errno with a caller-owned message;
 * never prints.
 */
#ifndef BENCH_PG_IDENTITY_H
#define BENCH_PG_IDENTITY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "bench/pg/server.h"

struct server_identity {
	unsigned long long system_identifier;
	char datadir[PATH_MAX];   /* the server's data_directory */
	bool local;               /* that folder is the cluster's, on this machine */
};

/* S's identity through a connection of its own (to the string's database,
 * else to postgres). -EIO when the server cannot be reached or will not
 * say (ERR says why). */
int server_identify(const struct server *s, struct server_identity *id,
		    char *err, size_t errlen);

/* The key files of the state folder are named by: "SYSID DATADIR". */
void server_identity_key(const struct server_identity *id, char *out, size_t len);

/* The system identifier in DATADIR/global/pg_control (its first 8 bytes,
 * in this machine's byte order): 0, or -errno. */
int server_control_sysid(const char *datadir, unsigned long long *out);

#endif
