/*
 * settings: the server settings eicbench changes, and the promise to put
 * them back. A setting is looked up (its context says how a value takes
 * effect: SET in a session, ALTER SYSTEM and reload, or ALTER SYSTEM and
 * restart), values are tried before anything runs, and before any change
 * to the server's configuration the original (what postgresql.auto.conf
 * held, and the value in force) is written to a journal next to the
 * cluster (fsync'd; for a --dsn server in eicbench's state folder, named
 * after the server's identity, bench/pg/identity.h, so every spelling of
 * its connection string finds it). The
 * journal is removed only once everything is put back and verified against
 * current_setting(). Every command that touches a server first restores a
 * journal left by a killed command. Nothing here prints.
 */
#ifndef BENCH_PG_SETTINGS_H
#define BENCH_PG_SETTINGS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <libpq-fe.h>

#include "bench/pg/server.h"

#define SETTINGS_MAX       32
#define SETTINGS_NAME_MAX  64
#define SETTINGS_VALUE_MAX 256
#define SETTINGS_JOURNAL   "eicbench-settings.journal"

enum settings_context {
	SETTINGS_SESSION = 0,     /* SET in the session */
	SETTINGS_RELOAD,          /* ALTER SYSTEM, then reload */
	SETTINGS_RESTART,         /* ALTER SYSTEM, then restart */
};

/* One setting eicbench changes, as it was before. */
struct settings_change {
	char name[SETTINGS_NAME_MAX];
	enum settings_context context;
	bool had_auto;                         /* postgresql.auto.conf held a value */
	char auto_value[SETTINGS_VALUE_MAX];   /* that value */
	char before[SETTINGS_VALUE_MAX];       /* current_setting() before */
};

struct settings_journal {
	char path[PATH_MAX];
	char owner[128];                       /* "eicbench sweep, pid 1234" */
	struct settings_change ch[SETTINGS_MAX];
	int  n;
};

/*
 * How NAME takes a new value on C. -EINVAL with ERR for an unknown setting
 * or one that cannot be varied (internal, or fixed at backend start).
 */
int settings_context_of(PGconn *c, const char *name, enum settings_context *out,
			char *err, size_t errlen);

/* The journal's place for server S (no file made yet); OWNER says who. */
int settings_journal_init(struct settings_journal *j, const struct server *s,
			  const char *owner, char *err, size_t errlen);

/*
 * Keep NAME's original in the journal and write it (fsync) before returning,
 * so that a change made after this call can always be put back. Once per
 * name; session settings need none. 0 or -errno with ERR.
 */
int settings_remember(struct settings_journal *j, PGconn *c, const char *name,
		      enum settings_context ctx, char *err, size_t errlen);

/* ALTER SYSTEM SET NAME = VALUE, or RESET NAME when VALUE is NULL. */
int settings_alter(PGconn *c, const char *name, const char *value, char *err, size_t errlen);

/* SET NAME = VALUE in C's session (set_config). */
int settings_set(PGconn *c, const char *name, const char *value, char *err, size_t errlen);

/* Does the server take VALUE for NAME? A session value is tried in a
 * rolled-back transaction; another is written by ALTER SYSTEM (remember
 * it first). -EINVAL with the server's words in ERR. */
int settings_try(PGconn *c, const char *name, enum settings_context ctx, const char *value,
		 char *err, size_t errlen);

int settings_reload(PGconn *c, char *err, size_t errlen);

/* NAME back to what postgresql.auto.conf held before J changed it (nothing
 * when J never did). */
int settings_put_back(const struct settings_journal *j, PGconn *c, const char *name,
		      char *err, size_t errlen);

/* After a reload: does any setting wait for a restart? 1, 0, or -EIO. */
int settings_pending_restart(PGconn *c, char *err, size_t errlen);

/*
 * Put back every change of J on S: ALTER SYSTEM to what auto.conf held (all
 * of them, past any that fails), reload, restart when a restart setting was
 * changed and its original is not in force or a setting waits for a
 * restart (a value the server refused restarts nothing; a managed server
 * that will not start is started with the originals as -c options first),
 * then check each against current_setting(). All back: the journal file
 * is removed and J emptied, 0. Otherwise -EIO, ERR listing the settings
 * still changed and naming the journal that is kept.
 */
int settings_restore(struct settings_journal *j, struct server *s, char *err, size_t errlen);

/*
 * At the start of a command on S: a journal left by a command that was
 * killed is restored. 0 when there was none or it is restored (SAID set to
 * 1 and ERR saying what was put back), -EIO when it could not be (ERR says
 * what is still changed and the journal's path).
 */
int settings_recover(struct server *s, int *said, char *err, size_t errlen);

/* The journal as JSON text, and back (for tests and the journal file). */
char *settings_journal_dump(const struct settings_journal *j);
int settings_journal_parse(struct settings_journal *j, const char *text, char *err, size_t errlen);

/* Restore a settings journal a killed command left for S, saying so on
 * stderr as "eicbench CMD: ...". A managed server that is down is left so
 * when there is no journal; with one it is started with the originals of
 * the journal's restart settings (a left value may keep it from starting
 * at all), put back, and restarted as configured. 0, or -EIO when it could
 * not be (said, with what is left). */
int settings_recover_running(const char *cmd, struct server *s);

#endif
