/*
 * identity: a --dsn server's system identifier and data directory, from
 * the server, checked against pg_control here; see identity.h.
 */
#include "bench/pg/identity.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"

int server_control_sysid(const char *datadir, unsigned long long *out)
{
	char path[PATH_MAX];
	uint64_t v;
	ssize_t n;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/global/pg_control", datadir) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, &v, sizeof(v));
	close(fd);
	if (n != (ssize_t)sizeof(v))
		return n < 0 ? -errno : -EIO;
	*out = (unsigned long long)v;
	return 0;
}

int server_identify(const struct server *s, struct server_identity *id,
		    char *err, size_t errlen)
{
	/* the string's database may not be made yet (load makes it) */
	PGconn *c = server_connect(s, NULL, err, errlen) ?: server_connect(s, "postgres", err, errlen);
	PGresult *r = c ? pgutil_query(c, sql_text("server/identity.sql"), 0, NULL, err, errlen) : NULL;
	unsigned long long here;
	int ret = -EIO;

	memset(id, 0, sizeof(*id));
	if (r && PQntuples(r) == 1) {
		id->system_identifier = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
		snprintf(id->datadir, sizeof(id->datadir), "%s", PQgetvalue(r, 0, 1));
		id->local = server_control_sysid(id->datadir, &here) == 0 &&
			    here == id->system_identifier;
		ret = 0;
	} else if (r) {
		snprintf(err, errlen, "the server did not say its system identifier");
	}
	PQclear(r);
	PQfinish(c);
	return ret;
}

void server_identity_key(const struct server_identity *id, char *out, size_t len)
{
	snprintf(out, len, "%llu %s", id->system_identifier, id->datadir);
}
