/*
 * serverinfo: read the server facts a record carries from a connection
 * (sql/server/info.sql) and turn each setting into a JSON value of its type.
 */
#include "bench/pg/serverinfo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"

json_t *serverinfo_value(const char *vartype, const char *unit, const char *shown)
{
	char *end;
	long long v;

	if (!strcmp(vartype, "bool")) {
		if (!strcmp(shown, "on") || !strcmp(shown, "true"))
			return json_true();
		if (!strcmp(shown, "off") || !strcmp(shown, "false"))
			return json_false();
	} else if (!strcmp(vartype, "integer") && !unit[0] && shown[0]) {
		errno = 0;
		v = strtoll(shown, &end, 10);
		if (!*end && errno == 0)
			return json_integer(v);
	}
	return json_string(shown);
}

json_t *serverinfo_read(PGconn *c, char *err, size_t errlen)
{
	PGresult *r = pgutil_query(c, sql_text("server/info.sql"), 0, NULL, err, errlen);
	json_t *o;

	if (!r)
		return NULL;
	o = json_object();
	for (int i = 0; i < PQntuples(r); i++)
		json_object_set_new(o, PQgetvalue(r, i, 0),
				    serverinfo_value(PQgetvalue(r, i, 1), PQgetvalue(r, i, 2),
						     PQgetvalue(r, i, 3)));
	PQclear(r);
	return o;
}
