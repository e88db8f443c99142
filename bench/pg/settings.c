/*
 * settings: looking settings up, trying and changing them, and the journal
 * that gets them back; see settings.h.
 */
#include "bench/pg/settings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/cli/redact.h"
#include "bench/pg/identity.h"
#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "bench/pg/statedir.h"
#include "bench/record/record.h"
#include "io/clock.h"
#include "io/file.h"

static const char *const context_names[] = { "session", "reload", "restart" };

int settings_context_of(PGconn *c, const char *name, enum settings_context *out,
			char *err, size_t errlen)
{
	const char *p[] = { name };
	PGresult *r = pgutil_query(c, sql_text("sweep/setting_info.sql"), 1, p, err, errlen);
	const char *ctx;
	int ret = 0;

	if (!r || PQntuples(r) != 1) {
		PQclear(r);
		snprintf(err, errlen, "%s: the server has no such setting", name);
		return -EINVAL;
	}
	ctx = PQgetvalue(r, 0, 0);
	if (!strcmp(ctx, "user") || !strcmp(ctx, "superuser"))
		*out = SETTINGS_SESSION;
	else if (!strcmp(ctx, "sighup"))
		*out = SETTINGS_RELOAD;
	else if (!strcmp(ctx, "postmaster"))
		*out = SETTINGS_RESTART;
	else {
		snprintf(err, errlen, "%s: this setting cannot be varied (context %s)", name, ctx);
		ret = -EINVAL;
	}
	PQclear(r);
	return ret;
}

/* ---- the journal's file ---- */

int settings_journal_init(struct settings_journal *j, const struct server *s,
			  const char *owner, char *err, size_t errlen)
{
	struct server_identity id;
	char key[PATH_MAX + 32], e[256];
	int ret;

	memset(j, 0, sizeof(*j));
	snprintf(j->owner, sizeof(j->owner), "%s, pid %ld", owner, (long)getpid());
	if (!s->external) {
		snprintf(j->path, sizeof(j->path), "%s/%s", s->datadir, SETTINGS_JOURNAL);
		return 0;
	}
	/* the server's own identity: another spelling of the string finds it;
	 * a server that cannot be reached has nothing to put back or change */
	if (server_identify(s, &id, e, sizeof(e)) == 0)
		server_identity_key(&id, key, sizeof(key));
	else
		redact_dsn(s->dsn, key, sizeof(key));
	ret = statedir_file("settings", key, ".journal", j->path, sizeof(j->path));
	if (ret < 0) {
		snprintf(err, errlen, "no folder to keep the settings journal of the --dsn server in (%s); set EICBENCH_STATE, XDG_STATE_HOME or HOME",
			 strerror(-ret));
		return ret;
	}
	return 0;
}

char *settings_journal_dump(const struct settings_journal *j)
{
	json_t *o = json_object(), *a = json_array();
	char *text;

	for (int i = 0; i < j->n; i++) {
		const struct settings_change *c = &j->ch[i];

		json_array_append_new(a, json_pack("{s:s, s:s, s:b, s:s, s:s}", "name", c->name,
						   "context", context_names[c->context], "had_auto", c->had_auto,
						   "auto_value", c->auto_value, "before", c->before));
	}
	json_object_set_new(o, "owner", json_string(j->owner));
	json_object_set_new(o, "changes", a);
	text = json_dumps(o, JSON_INDENT(2));
	json_decref(o);
	return text;
}

static int context_from(const char *s, enum settings_context *out)
{
	for (int i = 0; i < 3; i++)
		if (s && !strcmp(s, context_names[i])) {
			*out = (enum settings_context)i;
			return 0;
		}
	return -EINVAL;
}

/* One change of a journal, every field checked (a journal may be damaged). */
static int change_from(const json_t *e, struct settings_change *c)
{
	const char *name = json_string_value(json_object_get(e, "name"));
	const char *av = json_string_value(json_object_get(e, "auto_value"));
	const char *before = json_string_value(json_object_get(e, "before"));

	if (!name || !av || !before || strlen(name) >= sizeof(c->name) ||
	    strlen(av) >= sizeof(c->auto_value) || strlen(before) >= sizeof(c->before) ||
	    !json_is_boolean(json_object_get(e, "had_auto")) ||
	    context_from(json_string_value(json_object_get(e, "context")), &c->context) < 0)
		return -EINVAL;
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->auto_value, sizeof(c->auto_value), "%s", av);
	snprintf(c->before, sizeof(c->before), "%s", before);
	c->had_auto = json_is_true(json_object_get(e, "had_auto"));
	return 0;
}

int settings_journal_parse(struct settings_journal *j, const char *text, char *err, size_t errlen)
{
	json_t *o = json_loads(text, 0, NULL), *e;
	const json_t *a = json_object_get(o, "changes");
	size_t i;
	int ret = json_is_array(a) && json_array_size(a) <= SETTINGS_MAX ? 0 : -EINVAL;

	j->n = 0;
	snprintf(j->owner, sizeof(j->owner), "%s", json_string_value(json_object_get(o, "owner")) ?: "?");
	json_array_foreach(a, i, e)
		if (ret == 0 && (ret = change_from(e, &j->ch[j->n])) == 0)
			j->n++;
	json_decref(o);
	if (ret < 0)
		snprintf(err, errlen, "%s: not a settings journal eicbench can read; put the settings it names back by hand, then delete it",
			 j->path);
	return ret;
}

static int journal_write(const struct settings_journal *j, char *err, size_t errlen)
{
	char *text = settings_journal_dump(j);
	int ret;

	if (!text)
		return -ENOMEM;
	ret = record_write_file_atomic(j->path, text, strlen(text), err, errlen);
	free(text);
	return ret;
}

/* ---- remembering and changing ---- */

static int one_value(PGconn *c, const char *file, const char *name, char *out, size_t len,
		     bool *found, char *err, size_t errlen)
{
	const char *p[] = { name };
	PGresult *r = pgutil_query(c, sql_text(file), 1, p, err, errlen);

	if (!r)
		return -EIO;
	*found = PQntuples(r) == 1;
	snprintf(out, len, "%s", *found ? PQgetvalue(r, 0, 0) : "");
	PQclear(r);
	return 0;
}

int settings_remember(struct settings_journal *j, PGconn *c, const char *name,
		      enum settings_context ctx, char *err, size_t errlen)
{
	struct settings_change *ch;
	bool found;

	if (ctx == SETTINGS_SESSION)
		return 0;
	for (int i = 0; i < j->n; i++)
		if (!strcmp(j->ch[i].name, name))
			return 0;
	if (j->n == SETTINGS_MAX) {
		snprintf(err, errlen, "%s: more than %d settings to change at once", name, SETTINGS_MAX);
		return -EINVAL;
	}
	ch = &j->ch[j->n];
	memset(ch, 0, sizeof(*ch));
	snprintf(ch->name, sizeof(ch->name), "%s", name);
	ch->context = ctx;
	if (one_value(c, "sweep/auto_conf_value.sql", name, ch->auto_value, sizeof(ch->auto_value),
		      &ch->had_auto, err, errlen) < 0) {
		snprintf(err, errlen, "%s: cannot read what postgresql.auto.conf holds for it (pg_file_settings), so it could not be put back; run as a superuser",
			 name);
		return -EINVAL;
	}
	if (one_value(c, "sweep/current_setting.sql", name, ch->before, sizeof(ch->before), &found,
		      err, errlen) < 0)
		return -EIO;
	j->n++;
	return journal_write(j, err, errlen);
}

int settings_alter(PGconn *c, const char *name, const char *value, char *err, size_t errlen)
{
	char *id = PQescapeIdentifier(c, name, strlen(name));
	char *lit = value ? PQescapeLiteral(c, value, strlen(value)) : NULL;
	char sql[2 * SETTINGS_VALUE_MAX + 128];
	int ret;

	if (!id || (value && !lit)) {
		PQfreemem(id);
		PQfreemem(lit);
		snprintf(err, errlen, "%s: cannot quote it: %s", name, PQerrorMessage(c));
		return -EINVAL;
	}
	if (value)
		snprintf(sql, sizeof(sql), sql_text("sweep/alter_system.sql"), id, lit);
	else
		snprintf(sql, sizeof(sql), sql_text("sweep/alter_system_reset.sql"), id);
	ret = pgutil_exec(c, sql, 0, NULL, err, errlen);
	PQfreemem(id);
	PQfreemem(lit);
	return ret;
}

int settings_set(PGconn *c, const char *name, const char *value, char *err, size_t errlen)
{
	const char *p[2] = { name, value };

	return pgutil_exec(c, sql_text("sweep/set_config.sql"), 2, p, err, errlen);
}

int settings_try(PGconn *c, const char *name, enum settings_context ctx, const char *value,
		 char *err, size_t errlen)
{
	const char *p[] = { name, value };
	char msg[512], ignore[256];
	int ret;

	if (ctx == SETTINGS_SESSION) {
		pgutil_exec(c, "BEGIN", 0, NULL, ignore, sizeof(ignore));
		ret = pgutil_exec(c, sql_text("sweep/try_config.sql"), 2, p, msg, sizeof(msg));
		pgutil_exec(c, "ROLLBACK", 0, NULL, ignore, sizeof(ignore));
	} else {
		ret = settings_alter(c, name, value, msg, sizeof(msg));
	}
	if (ret < 0)
		snprintf(err, errlen, "%s: the server rejects '%s': %.*s", name, value,
			 (int)strcspn(msg, "\n"), msg);
	return ret < 0 ? -EINVAL : 0;
}

#define RELOAD_WAIT_MS 10000

int settings_reload(PGconn *c, char *err, size_t errlen)
{
	PGresult *r = pgutil_query(c, sql_text("sweep/reload.sql"), 0, NULL, err, errlen);
	char before[64];
	const char *p[1] = { before };
	double t0 = clock_now_ms();

	if (!r)
		return -EIO;
	snprintf(before, sizeof(before), "%s", PQgetvalue(r, 0, 0));
	PQclear(r);
	/* Each statement lets the backend handle a pending reload signal
	 * first; its load time moves once the postmaster has read the files. */
	while (clock_now_ms() - t0 < RELOAD_WAIT_MS) {
		int done;

		if (!(r = pgutil_query(c, sql_text("sweep/reloaded.sql"), 1, p, err, errlen)))
			return -EIO;
		done = !strcmp(PQgetvalue(r, 0, 0), "t");
		PQclear(r);
		if (done)
			return 0;
		clock_sleep_ms(10);
	}
	snprintf(err, errlen, "the server did not load its configuration files within %d s of pg_reload_conf()",
		 RELOAD_WAIT_MS / 1000);
	return -ETIMEDOUT;
}

int settings_put_back(const struct settings_journal *j, PGconn *c, const char *name,
		      char *err, size_t errlen)
{
	for (int i = 0; i < j->n; i++)
		if (!strcmp(j->ch[i].name, name))
			return settings_alter(c, name, j->ch[i].had_auto ? j->ch[i].auto_value : NULL,
					      err, errlen);
	return 0;
}

int settings_pending_restart(PGconn *c, char *err, size_t errlen)
{
	PGresult *r = pgutil_query(c, sql_text("sweep/pending_restart.sql"), 0, NULL, err, errlen);
	int n;

	if (!r)
		return -EIO;
	n = atoi(PQgetvalue(r, 0, 0));
	PQclear(r);
	return n > 0;
}

/* ---- putting back ---- */

/* Connect; a managed server that will not start gets the originals of the
 * restart settings as -c options (they override postgresql.auto.conf;
 * *WITH_OPTIONS set: it must be restarted without them). */
static PGconn *reach(const struct settings_journal *j, struct server *s, bool *with_options,
		     char *err, size_t errlen)
{
	const char *list[SETTINGS_MAX + 1];
	char pairs[SETTINGS_MAX][SETTINGS_NAME_MAX + SETTINGS_VALUE_MAX + 2];
	PGconn *c = server_connect(s, NULL, err, errlen);
	int n = 0;

	if (c || s->external)
		return c;
	for (int i = 0; i < j->n; i++)
		if (j->ch[i].context == SETTINGS_RESTART) {
			snprintf(pairs[n], sizeof(pairs[n]), "%s=%s", j->ch[i].name, j->ch[i].before);
			list[n] = pairs[n];
			n++;
		}
	list[n] = NULL;
	*with_options = true;
	server_stop(s, err, errlen);
	if (server_start_with(s, list, err, errlen) < 0)
		return NULL;
	return server_connect(s, NULL, err, errlen);
}

/* Which settings are not back: a list in BAD, their count. */
static int verify(const struct settings_journal *j, struct server *s, char *bad, size_t len)
{
	PGconn *c = server_connect(s, NULL, bad, len);
	size_t used = 0;
	int n = 0;

	if (!c)
		return j->n;
	bad[0] = '\0';
	for (int i = 0; i < j->n; i++) {
		char now[SETTINGS_VALUE_MAX], e[256];
		bool found;

		if (one_value(c, "sweep/current_setting.sql", j->ch[i].name, now, sizeof(now), &found,
			      e, sizeof(e)) == 0 && !strcmp(now, j->ch[i].before))
			continue;
		used += (size_t)snprintf(bad + used, used < len ? len - used : 0, "%s%s = %s (was %s)",
					 n ? ", " : "", j->ch[i].name, now, j->ch[i].before);
		n++;
	}
	PQfinish(c);
	return n;
}

int settings_restore(struct settings_journal *j, struct server *s, char *err, size_t errlen)
{
	char e[512], bad[2048];
	bool restart = false, with_options = false;
	int failed = 0;
	PGconn *c;

	if (j->n == 0)
		return unlink(j->path) < 0 && errno != ENOENT ? -errno : 0;
	c = reach(j, s, &with_options, e, sizeof(e));
	for (int i = 0; c && i < j->n; i++) {
		failed += settings_alter(c, j->ch[i].name, j->ch[i].had_auto ? j->ch[i].auto_value : NULL,
					 e, sizeof(e)) < 0;
		restart |= j->ch[i].context == SETTINGS_RESTART;
	}
	if (c && settings_reload(c, e, sizeof(e)) < 0)
		failed++;
	/* A restart only when one is due: a restart setting whose change was
	 * refused (a value the server rejects), or written but never taken
	 * (killed before the restart), leaves the originals in force and
	 * nothing pending, and the server keeps running. */
	if (c && restart && !failed && !with_options && settings_pending_restart(c, e, sizeof(e)) == 0 &&
	    verify(j, s, bad, sizeof(bad)) == 0)
		restart = false;
	PQfinish(c);
	if (c && restart && server_restart(s, e, sizeof(e)) < 0)
		failed++;
	if (!c || verify(j, s, bad, sizeof(bad)) > 0) {
		snprintf(err, errlen, "settings not put back: %s; the journal %s keeps what they were (%s%s)",
			 c ? bad : "the server could not be reached", j->path, failed ? "last error: " : "",
			 failed ? e : "a later command on this server tries again");
		return -EIO;
	}
	if (unlink(j->path) < 0 && errno != ENOENT)
		return -errno;
	j->n = 0;	/* the originals are in force: a later change is journaled anew */
	return 0;
}

int settings_recover(struct server *s, int *said, char *err, size_t errlen)
{
	struct settings_journal j;
	char *text = NULL, names[1024] = "";
	size_t used = 0;
	int ret = settings_journal_init(&j, s, "recovery", err, errlen);

	*said = 0;
	if (ret < 0)
		return ret;
	ret = file_read_all(j.path, 1 << 20, &text, NULL);
	if (ret == -ENOENT)
		return 0;
	if (ret == 0)
		ret = settings_journal_parse(&j, text, err, errlen);
	else
		snprintf(err, errlen, "%s: cannot read it: %s", j.path, strerror(-ret));
	free(text);
	if (ret < 0)
		return -EIO;
	for (int i = 0; i < j.n; i++)
		used += (size_t)snprintf(names + used, used < sizeof(names) ? sizeof(names) - used : 0,
					 "%s%s", i ? ", " : "", j.ch[i].name);
	ret = settings_restore(&j, s, err, errlen);
	if (ret == 0) {
		*said = 1;
		snprintf(err, errlen, "a command that did not finish (%s) left settings changed; put back: %s",
			 j.owner, names[0] ? names : "none");
	}
	return ret;
}

/* Is a journal there for S? */
static bool journal_left(const struct server *s)
{
	struct settings_journal j;
	char err[256];

	return settings_journal_init(&j, s, "recovery", err, sizeof(err)) == 0 &&
	       access(j.path, F_OK) == 0;
}

int settings_recover_running(const char *cmd, struct server *s)
{
	char err[2048];
	int said = 0;

	/* A managed server that is down is started only when a journal is
	 * there, with the originals of its restart settings (reach()): a left
	 * value may be what keeps it from starting at all. */
	if (!s->external && server_running_pid(s) <= 0 && !journal_left(s))
		return 0;
	if (settings_recover(s, &said, err, sizeof(err)) < 0) {
		fprintf(stderr, "eicbench %s: %s\n", cmd, err);
		return -EIO;
	}
	if (said)
		fprintf(stderr, "eicbench %s: %s\n", cmd, err);
	return 0;
}
