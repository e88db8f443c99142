/*
 * relblocks: the heap blocks a query reads, from the database. A query of the
 * form "SELECT * FROM relation ..." is rewritten to select the distinct block
 * numbers of its rows' ctids in ascending order, each with its count of the
 * query's rows: the pages a bitmap heap scan visits (exact and lossy alike),
 * in the order it visits them, and the tuples each would hold as an exact
 * page of the bitmap. Also finds the
 * relation's segment files (data_directory/pg_relation_filepath, then .1,
 * .2, ...). Functions return 0, -EINVAL for bad input (exit 2) or another
 * -errno for a failed run, and fill a caller-owned message.
 */
#ifndef BENCH_OBSERVE_RELBLOCKS_H
#define BENCH_OBSERVE_RELBLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

struct relblocks {
	unsigned int oid;
	char        *base;             /* first segment file, absolute */
	char       **segments;         /* base, base.1, ... that exist */
	unsigned     nsegments;
	uint64_t     relation_blocks;  /* pg_relation_size / block_size */
	uint32_t     block_bytes;      /* the server's block_size */
	char         server_version[32];
	double       tuples_per_page;  /* pg_class reltuples / relpages, 0 when not counted */
	uint64_t    *blocks;           /* distinct, ascending */
	uint32_t    *ntuples;          /* the query's rows on each */
	size_t       nblocks;
	uint64_t     rows;             /* their sum */
	double       query_s;          /* time the block query took */
};

/*
 * Rewrite TEXT, which must start (after white space and "--" comment lines)
 * with "SELECT * FROM name" where name is RELATION (unquoted parts compare
 * case-insensitively), into the block query. *OUT is malloc'd.
 */
int relblocks_rewrite(const char *text, const char *relation, char **out,
		      char *err, size_t errlen);

/*
 * Look RELATION up on C: its oid, size, block size, the server version and
 * its segment files under DATADIR (NULL: ask the server for data_directory).
 * The files must be readable here.
 */
int relblocks_lookup(PGconn *c, const char *relation, const char *datadir,
		     struct relblocks *rb, char *err, size_t errlen);

/* Run BLOCK_QUERY (from relblocks_rewrite) and keep the block numbers and
 * their rows. */
int relblocks_fetch(PGconn *c, const char *block_query, struct relblocks *rb,
		    char *err, size_t errlen);

void relblocks_free(struct relblocks *rb);

/* The server's data_directory (superuser or pg_read_all_settings). */
int relblocks_datadir(PGconn *c, char *out, size_t len, char *err, size_t errlen);

/*
 * 0 when BASE, the first file of RELATION, can be opened here; else -EINVAL
 * with a message saying who can read it (REMOTE: the server may be elsewhere).
 */
int relblocks_readable(const char *relation, const char *base, bool remote,
		       char *err, size_t errlen);

#endif
