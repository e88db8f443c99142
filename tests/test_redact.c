/*
 * test_redact: the redaction of secrets before anything reaches a record or
 * a log: connection strings in both forms, command-line arguments (and a
 * --restart-cmd, or none with --no-record-cmd), a command line joined for a
 * lock's holder, and messages (libpq's own among them), each against a
 * table that holds forms that must be left alone too.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "bench/cli/redact.h"
#include "io/rng.h"

/* ---- redaction ---- */

struct case_ {
	const char *in, *out;
};

static const struct case_ dsns[] = {
	{ "host=h port=5432 password=secret user=u", "host=h port=5432 user=u" },
	{ "password = 'se cret\\' x' dbname=d", "dbname=d" },
	{ "  host=h   PASSWORD=x", "host=h" },
	{ "host=h password=", "host=h" },
	{ "host=h password", "host=h" },
	{ "host=/tmp/s dbname=postgres", "host=/tmp/s dbname=postgres" },
	{ "passwordx=1 host=h", "passwordx=1 host=h" },
	{ "", "" },
	{ "host=h sslpassword=s3 user=u", "host=h user=u" },
	{ "host=h SSLPassword = 'a b'", "host=h" },
	{ "oauth_client_secret=abc host=h", "host=h" },
	{ "scram_client_key=AAAA scram_server_key=BBBB host=h", "host=h" },
	{ "password=a\\ b host=h", "host=h" },
	/* a space in a bare secret: the words after it that are no pair go too */
	{ "host=h password=hunter secretword", "host=h" },
	{ "host=h password=a b c user=u", "host=h user=u" },
	{ "password=x b =1", "b =1" },
	{ "password='' host=h", "host=h" },
	{ "password =x host=h", "host=h" },
	{ "a='1'b=2 c=3", "a='1'b=2 c=3" },			/* no space needed after a quote */
	{ "a=1 password='x'b=2", "a=1 b=2" },
	{ "a='1'password='x'b=2", "a='1'b=2" },
	/* paths and values that only look like secrets stay */
	{ "passfile=/home/u/.pgpass host=h", "passfile=/home/u/.pgpass host=h" },
	{ "sslkey=/etc/password/client.key sslcert=/x", "sslkey=/etc/password/client.key sslcert=/x" },
	{ "dbname=password user=password", "dbname=password user=password" },
	{ "application_name='password=x'", "application_name='password=x'" },
	/* URIs */
	{ "postgresql://u:secret@h:5432/db?sslmode=require&password=x", "postgresql://u@h:5432/db?sslmode=require" },
	{ "postgres://u@h/db", "postgres://u@h/db" },
	{ "postgresql://h/db?password=x", "postgresql://h/db" },
	{ "postgresql://:secret@h/db", "postgresql://@h/db" },
	{ "postgresql:///db?host=/tmp&password=x&user=u", "postgresql:///db?host=/tmp&user=u" },
	{ "postgresql://h", "postgresql://h" },
	{ "postgresql://u:secret@h/db?sslpassword=x&sslmode=require", "postgresql://u@h/db?sslmode=require" },
	{ "postgresql://h/db?pass%77ord=x&application_name=a", "postgresql://h/db?application_name=a" },
	{ "postgresql://h/db?%70%61ssword=x", "postgresql://h/db" },
	{ "postgresql://h/db?PASSWORD=x", "postgresql://h/db" },
	{ "postgresql://h/db?password=%41%42&user=u", "postgresql://h/db?user=u" },
	{ "postgresql://h/db?oauth_client_secret=x&scram_client_key=y", "postgresql://h/db" },
	{ "postgresql://h/db?sslmode=require&password", "postgresql://h/db?sslmode=require" },
	{ "postgresql://h/db?bad%zzkey=1&user=u", "postgresql://h/db?user=u" },
	{ "postgresql://u:p%40ss@h1:5432,h2:5433/db", "postgresql://u@h1:5432,h2:5433/db" },
	{ "postgresql://u@h/db?passfile=/x/password", "postgresql://u@h/db?passfile=/x/password" },
	{ "postgresql://h/pass:word@x", "postgresql://h/pass:word@x" },	/* '@' after '/': a path */
	{ "postgresql://h/db?application_name=password", "postgresql://h/db?application_name=password" },
};

static void test_redact_dsn(void **state)
{
	char out[256];

	(void)state;
	for (size_t i = 0; i < sizeof(dsns) / sizeof(dsns[0]); i++) {
		assert_int_equal(redact_dsn(dsns[i].in, out, sizeof(out)), 0);
		if (strcmp(out, dsns[i].out))
			fail_msg("redact_dsn(\"%s\") = \"%s\", wanted \"%s\"", dsns[i].in, out, dsns[i].out);
	}
	assert_int_equal(redact_dsn("host=h", out, 5), -ENOSPC);
	assert_string_equal(out, "host");
	assert_int_equal(redact_dsn("host=h", out, 0), -ENOSPC);
}

/* Every option the linked libpq shows as "*" (a secret) is redacted, in
 * both forms, whatever version it is. */
static void test_redact_libpq_secrets(void **state)
{
	PQconninfoOption *opts = PQconndefaults();
	char in[256], out[256];
	int n = 0;

	(void)state;
	assert_non_null(opts);
	for (PQconninfoOption *o = opts; o->keyword; o++) {
		if (strcmp(o->dispchar, "*"))
			continue;
		n++;
		snprintf(in, sizeof(in), "host=h %s=leak1 port=1", o->keyword);
		assert_int_equal(redact_dsn(in, out, sizeof(out)), 0);
		assert_string_equal(out, "host=h port=1");
		snprintf(in, sizeof(in), "postgresql://h/db?%s=leak2", o->keyword);
		assert_int_equal(redact_dsn(in, out, sizeof(out)), 0);
		assert_string_equal(out, "postgresql://h/db");
	}
	PQconninfoFree(opts);
	assert_true(n >= 2);		/* password and sslpassword at least */
}

/* The value of KEY among libpq's parsed options, NULL when unset. */
static const char *option(const PQconninfoOption *o, const char *key)
{
	for (; o->keyword; o++)
		if (!strcmp(o->keyword, key))
			return o->val;
	return NULL;
}

static bool secret_option(const char *key)
{
	return !strcmp(key, "password") || !strcmp(key, "sslpassword") ||
	       strstr(key, "secret") || !strncmp(key, "scram_", 6);
}

/*
 * libpq as the judge: strings glued from pieces of both forms (quotes,
 * escapes, spaces, percent-encoding, secret and plain keys); for each that
 * libpq parses, the redacted copy parses too, with every plain option's
 * value unchanged and no secret option set. Seeded: the same strings on
 * every run.
 */
static void test_redact_keeps_what_libpq_reads(void **state)
{
	static const char *const pieces[] = {
		"password", "=", "'", "\\", " ", "host", "x", "sslpassword", "dbname",
		"  ", "a b", "PASSWORD", "user", "'q'", "%41", "postgresql://", "u:p@h/d",
		"?", "&", "password=z", "application_name", "@", ":", "pass%77ord",
	};
	const size_t npieces = sizeof(pieces) / sizeof(pieces[0]);
	struct rng r;
	char in[256], out[256], *msg = NULL;
	int parsed = 0;

	(void)state;
	rng_seed(&r, 11);
	for (int it = 0; it < 100000; it++) {
		PQconninfoOption *a, *b;
		size_t n = 0, k = rng_below(&r, 16);

		in[0] = '\0';
		for (size_t i = 0; i < k; i++) {
			const char *piece = pieces[rng_below(&r, npieces)];

			if (n + strlen(piece) >= sizeof(in))
				break;
			strcpy(in + n, piece);
			n += strlen(piece);
		}
		if (!(a = PQconninfoParse(in, &msg))) {
			PQfreemem(msg);
			continue;
		}
		parsed++;
		assert_int_equal(redact_dsn(in, out, sizeof(out)), 0);
		b = PQconninfoParse(out, &msg);
		if (!b)
			fail_msg("\"%s\" redacted to \"%s\", which libpq refuses: %s", in, out, msg);
		for (const PQconninfoOption *o = a; o->keyword; o++) {
			const char *was = o->val, *now = option(b, o->keyword);

			if (secret_option(o->keyword) ? now != NULL
			    : (was == NULL) != (now == NULL) || (was && strcmp(was, now)))
				fail_msg("\"%s\" redacted to \"%s\": %s was %s, is %s", in, out,
					 o->keyword, was ? was : "unset", now ? now : "unset");
		}
		PQconninfoFree(a);
		PQconninfoFree(b);
	}
	assert_true(parsed > 1000);	/* the pieces make enough real strings */
}

static const struct case_ args[] = {
	{ "eicbench", "eicbench" },
	{ "", "" },
	{ "--eic=1,2,4", "--eic=1,2,4" },
	{ "--set=work_mem=64MB", "--set=work_mem=64MB" },
	{ "work_mem=64MB", "work_mem=64MB" },
	{ "PGPASSWORD=s3cret", "PGPASSWORD=***" },
	{ "pgpassword=s3cret", "pgpassword=***" },
	{ "password=s3cret", "password=***" },
	{ "--password=s3cret", "--password=***" },
	{ "--db-password='a b' x", "--db-password=*** x" },
	{ "MY_DB_SECRET=abc", "MY_DB_SECRET=***" },
	{ "--token=abc", "--token=***" },
	{ "--password", "--password" },
	{ "-p", "-p" },
	{ "password", "password" },
	{ "--passfile=/x", "--passfile=/x" },
	{ "passfile=/x", "passfile=/x" },
	{ "PGPASSFILE=/home/u/.pgpass", "PGPASSFILE=/home/u/.pgpass" },
	{ "--password-file=/run/secrets/pg", "--password-file=/run/secrets/pg" },
	{ "/srv/password/pg", "/srv/password/pg" },
	{ "--datadir=/srv/password=old/pg", "--datadir=/srv/password=old/pg" },
	{ "--out=results/password-test", "--out=results/password-test" },
	/* connection strings: through redact_dsn() */
	{ "host=db password=hunter2 user=u", "host=db user=u" },
	{ "--dsn=host=db sslpassword='x y' user=u", "--dsn=host=db user=u" },
	{ "--dsn=dbname=password", "--dsn=dbname=password" },
	{ "postgresql://u:hunter2@db/x?password=hunter2", "postgresql://u@db/x" },
	{ "--dsn=postgresql://u:pw@h/db?pass%77ord=x", "--dsn=postgresql://u@h/db" },
	/* commands (a --restart-cmd is one argument) */
	{ "env PGPASSWORD=s3cret pg_ctlcluster 15 main restart", "env PGPASSWORD=*** pg_ctlcluster 15 main restart" },
	{ "sh -c 'PGPASSWORD=\"a b\" psql postgresql://u:pw@h/db'", "sh -c 'PGPASSWORD=*** psql postgresql://u:***@h/db'" },
	{ "psql \"host=h password=x\" -c 'select 1'", "psql \"host=h password=***\" -c 'select 1'" },
	{ "curl -s 'http://x/restart?password=abc'", "curl -s 'http://x/restart?password=***'" },
	{ "pg_ctl restart -D /var/lib/postgresql/password-test", "pg_ctl restart -D /var/lib/postgresql/password-test" },
	{ "--restart-cmd=ssh db sudo PGPASSWORD=x systemctl restart postgresql",
	  "--restart-cmd=ssh db sudo PGPASSWORD=*** systemctl restart postgresql" },
	{ "psql postgresql://u:pw@h/db?sslpassword=z&sslmode=require",
	  "psql postgresql://u:***@h/db?sslpassword=***&sslmode=require" },
};

static void test_redact_arg(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		char *out = redact_arg(args[i].in);

		assert_non_null(out);
		if (strcmp(out, args[i].out))
			fail_msg("redact_arg(\"%s\") = \"%s\", wanted \"%s\"", args[i].in, out, args[i].out);
		free(out);
	}
}

static void test_redact_argv_and_cmdline(void **state)
{
	char *argv[] = { "eicbench", "sweep", "--dsn", "host=h password=x", "--restart-cmd",
			 "env PGPASSWORD=y pg_ctl restart", "--out", "" };
	char **r = redact_argv(8, argv), line[256];

	(void)state;
	assert_non_null(r);
	assert_string_equal(r[3], "host=h");
	assert_string_equal(r[5], "env PGPASSWORD=*** pg_ctl restart");
	assert_null(r[8]);
	redact_argv_free(r);
	redact_argv_free(NULL);
	r = redact_argv(0, argv);
	assert_non_null(r);
	assert_null(r[0]);
	redact_argv_free(r);
	assert_int_equal(redact_cmdline(8, argv, line, sizeof(line)), 0);
	assert_string_equal(line, "eicbench sweep --dsn host=h --restart-cmd 'env PGPASSWORD=*** pg_ctl restart' --out ''");
	argv[1] = "it's";
	assert_int_equal(redact_cmdline(2, argv, line, sizeof(line)), 0);
	assert_string_equal(line, "eicbench 'it'\\''s'");
	assert_int_equal(redact_cmdline(8, argv, line, 12), -ENOSPC);
	assert_string_equal(line, "eicbench 'i");
}

static const struct {
	const char *msg, *dsn, *out;
} messages[] = {
	{ "password authentication failed for user \"u\"", NULL, "password authentication failed for user \"u\"" },
	{ "cannot connect: password=x sslpassword = 'y z' ok", NULL, "cannot connect: password=*** sslpassword = *** ok" },
	{ "end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"postgresql://u:pw@[::1/db\"",
	  NULL, "end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"postgresql://u:***@[::1/db\"" },
	{ "--dsn 'host=h password=hunter22': no", NULL, "--dsn 'host=h password=***': no" },
	/* the DSN's own secrets, as written and as libpq decodes them */
	{ "invalid percent-encoded token: \"s3cr%zzet\"", "postgresql://u:s3cr%zzet@h/db",
	  "invalid percent-encoded token: \"***\"" },
	{ "got p@ssw0rd and p%40ssw0rd", "postgresql://u@h/db?password=p%40ssw0rd", "got *** and ***" },
	{ "role \"hunter22\" does not exist", "host=h password='hunter22'", "role \"***\" does not exist" },
	{ "missing \"=\" after \"it's long\"", "password='it\\'s long'", "missing \"=\" after \"***\"" },
	{ "abc is short", "host=h password=abc", "abc is short" },
	{ "missing \"=\" after \"secretword\" in connection info string", "host=/x password=hunter secretword",
	  "missing \"=\" after \"***\" in connection info string" },
	{ "nothing here", "not a dsn", "nothing here" },
	{ "", "host=h password=x", "" },
};

/* --no-record-cmd: the restart command is left out whole, in both forms. */
static void test_no_record_cmd(void **state)
{
	char *const with[] = { "eicbench", "sweep", "--dsn", "host=h", "--restart-cmd",
		"ssh db sudo systemctl restart postgresql", "--no-record-cmd", NULL };
	char *const eq[] = { "eicbench", "sweep", "--restart-cmd=ssh db restart", "--no-record-cmd", NULL };
	char *const without[] = { "eicbench", "sweep", "--restart-cmd", "ssh db restart", NULL };
	char line[512];
	char **v;

	(void)state;
	assert_int_equal(redact_cmdline(7, with, line, sizeof(line)), 0);
	assert_null(strstr(line, "systemctl"));
	assert_non_null(strstr(line, "--restart-cmd '(not recorded: --no-record-cmd)' --no-record-cmd"));
	v = redact_argv(4, eq);
	assert_non_null(v);
	assert_string_equal(v[2], "--restart-cmd=(not recorded: --no-record-cmd)");
	redact_argv_free(v);
	assert_int_equal(redact_cmdline(4, without, line, sizeof(line)), 0);
	assert_non_null(strstr(line, "'ssh db restart'"));
}

static void test_redact_message(void **state)
{
	char out[512];

	(void)state;
	for (size_t i = 0; i < sizeof(messages) / sizeof(messages[0]); i++) {
		assert_int_equal(redact_message(messages[i].msg, messages[i].dsn, out, sizeof(out)), 0);
		if (strcmp(out, messages[i].out))
			fail_msg("redact_message(\"%s\", \"%s\") = \"%s\", wanted \"%s\"", messages[i].msg,
				 messages[i].dsn ? messages[i].dsn : "(null)", out, messages[i].out);
	}
	assert_int_equal(redact_message("password=x y", NULL, out, 10), -ENOSPC);
	assert_string_equal(out, "password=");
	assert_int_equal(redact_message("x", NULL, out, 0), -ENOSPC);
}

/* libpq's own messages for connection strings it cannot parse echo the
 * secret (at least some do, in every version seen); redacted, none does. */
static void test_redact_libpq_messages(void **state)
{
	static const char *const bad[] = {
		"postgresql://u:hunter22@[::1/db",
		"postgresql://u@h/db?password=hunt%zzer22",
		"postgresql://u@h/db?sslpassword=hunter22&sslmode=bogus",
		"host=/nonexistent password='hunter22 x",
	};
	int leaked = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *keys[] = { "connect_timeout", "dbname", NULL };
		const char *vals[] = { "1", bad[i], NULL };
		PGconn *c = PQconnectdbParams(keys, vals, 1);
		char out[1024];

		assert_int_not_equal(PQstatus(c), CONNECTION_OK);
		leaked += strstr(PQerrorMessage(c), "hunter22") || strstr(PQerrorMessage(c), "hunt%zzer22");
		assert_int_equal(redact_message(PQerrorMessage(c), bad[i], out, sizeof(out)), 0);
		if (strstr(out, "hunt"))
			fail_msg("libpq said \"%s\", redacted to \"%s\"", PQerrorMessage(c), out);
		PQfinish(c);
	}
	assert_true(leaked >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_redact_dsn),
		cmocka_unit_test(test_redact_libpq_secrets),
		cmocka_unit_test(test_redact_keeps_what_libpq_reads),
		cmocka_unit_test(test_redact_arg),
		cmocka_unit_test(test_redact_argv_and_cmdline),
		cmocka_unit_test(test_no_record_cmd),
		cmocka_unit_test(test_redact_message),
		cmocka_unit_test(test_redact_libpq_messages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
