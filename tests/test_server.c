/*
 * test_server: resolving options without a server: argv splitting for
 * --restart-cmd (no shell), data directory paths, user handling, --pg and
 * --pgbin, and reading pg_controldata's checksum line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/pg/server.h"

static const struct split_case {
	const char *in;
	int n;
	const char *w[4];
} splits[] = {
	{ "pg_ctlcluster 15 main restart", 4, { "pg_ctlcluster", "15", "main", "restart" } },
	{ "  systemctl   restart\tpostgresql ", 3, { "systemctl", "restart", "postgresql" } },
	{ "sh -c 'a; b'", 3, { "sh", "-c", "a; b" } },
	{ "x \"a b\"c", 2, { "x", "a bc" } },
	{ "echo $HOME", 2, { "echo", "$HOME" } },
	{ "", 0, { NULL } },
	{ "x 'open", -EINVAL, { NULL } },
};

static void split(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(splits) / sizeof(splits[0]); i++) {
		char buf[128], *argv[8];
		int n;

		snprintf(buf, sizeof(buf), "%s", splits[i].in);
		n = server_split_argv(buf, argv, 8);
		assert_int_equal(n, splits[i].n);
		for (int k = 0; k < n; k++)
			assert_string_equal(argv[k], splits[i].w[k]);
		if (n >= 0)
			assert_null(argv[n]);
	}
}

static int resolve(struct server_cfg *cfg, struct server *s, char *err)
{
	err[0] = '\0';
	return server_resolve(cfg, s, err, 1024);
}

static void paths(void **state)
{
	struct server_cfg cfg;
	struct server s;
	char err[1024], cwd[512], want[1100];

	(void)state;
	server_cfg_defaults(&cfg);
	cfg.datadir = "data/x/";
	assert_int_equal(resolve(&cfg, &s, err), 0);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(want, sizeof(want), "%s/data/x", cwd);
	assert_string_equal(s.datadir, want);
	assert_int_equal(s.port, 5432);

	cfg.datadir = "/tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	assert_int_equal(resolve(&cfg, &s, err), -EINVAL);
	assert_non_null(strstr(err, "must be at most"));

	cfg.datadir = "/tmp/a\nport = 1";	/* never into postgresql.conf */
	assert_int_equal(resolve(&cfg, &s, err), -EINVAL);
	assert_non_null(strstr(err, "--datadir: '/tmp/a\\nport = 1' holds a control character"));

	cfg.datadir = NULL;
	cfg.pgbin = "/nonexistent";
	assert_int_equal(resolve(&cfg, &s, err), -EINVAL);
	assert_non_null(strstr(err, "--pgbin: '/nonexistent' holds no PostgreSQL"));
}

static void external(void **state)
{
	struct server_cfg cfg;
	struct server s;
	char err[1024];

	(void)state;
	server_cfg_defaults(&cfg);
	cfg.restart_cmd = "/bin/true";
	assert_int_equal(resolve(&cfg, &s, err), -EINVAL);
	assert_non_null(strstr(err, "--restart-cmd is for a server given with --dsn"));
	cfg.dsn = "host=/nowhere";
	cfg.restart_cmd = "broken 'quote";
	assert_int_equal(resolve(&cfg, &s, err), -EINVAL);
	assert_non_null(strstr(err, "--restart-cmd 'broken 'quote'"));
	cfg.restart_cmd = "pg_ctlcluster 15 main restart";
	assert_int_equal(resolve(&cfg, &s, err), 0);
	assert_true(s.external);
	assert_string_equal(s.restart_cmd, "pg_ctlcluster 15 main restart");
}

static void users(void **state)
{
	struct server_cfg cfg;
	struct server s;
	char err[1024];

	(void)state;
	server_cfg_defaults(&cfg);
	cfg.user = "no_such_user_eicbench";
	assert_int_equal(resolve(&cfg, &s, err), -EINVAL);
	if (geteuid() == 0) {
		assert_non_null(strstr(err, "no such user"));
		cfg.user = "root";
		assert_int_equal(resolve(&cfg, &s, err), -EINVAL);
		assert_non_null(strstr(err, "PostgreSQL refuses to run as root"));
		cfg.user = NULL;
		if (resolve(&cfg, &s, err) == 0) {	/* the postgres user exists */
			assert_true(s.drop_privileges);
			assert_string_equal(s.user, "postgres");
		}
	} else {
		assert_non_null(strstr(err, "needs root"));
		cfg.user = NULL;
		assert_int_equal(resolve(&cfg, &s, err), 0);
		assert_false(s.drop_privileges);
		assert_int_equal(s.uid, geteuid());
	}
}

/* The ends of real pg_controldata output, 18 (checksums on) and 15 (off). */
static const char controldata_18[] =
	"pg_control version number:            1800\n"
	"Catalog version number:               202506291\n"
	"Data page checksum version:           1\n"
	"Mock authentication nonce:            3e00cb55ab0aec4d9e69258f7d7f3e8bd71ac00d11b4e4e177e9c05353ffe389\n";
static const char controldata_15[] =
	"Float8 argument passing:              by value\n"
	"Data page checksum version:           0\n"
	"Mock authentication nonce:            4990c1ff6e059f8b676ca56b869b6fd4eca750c2c7922feb36f02494f0d9616f\n";

static void checksums(void **state)
{
	(void)state;
	assert_int_equal(server_parse_checksums(controldata_18), 1);
	assert_int_equal(server_parse_checksums(controldata_15), 0);
	assert_int_equal(server_parse_checksums("Data page checksum version:   2\n"), 1);
	assert_int_equal(server_parse_checksums("Data page checksum version:\n"), -EINVAL);
	assert_int_equal(server_parse_checksums("Prüfsummenversion der Datenseiten: 1\n"), -EINVAL);
	assert_int_equal(server_parse_checksums(""), -EINVAL);
}

static void pg_major(void **state)
{
	struct server_cfg cfg;
	struct server s;
	char err[1024];

	(void)state;
	server_cfg_defaults(&cfg);
	cfg.datadir = "data/none";
	cfg.pg = 18;
	cfg.pgbin = "/usr/lib/postgresql/15/bin";
	assert_int_equal(resolve(&cfg, &s, err), -EINVAL);
	assert_non_null(strstr(err, "--pg 18 and --pgbin '/usr/lib/postgresql/15/bin': give one of them"));

	setenv("EICBENCH_CACHE", "/nonexistent/cache", 1);
	cfg.pgbin = NULL;
	cfg.pg = 97;
	assert_int_equal(resolve(&cfg, &s, err), -EINVAL);
	assert_non_null(strstr(err, "--pg 97: no PostgreSQL 97 binaries found (looked in /nonexistent/cache/pg/97.* and /usr/lib/postgresql/97/bin); scripts/build-pg.sh 97 builds them"));
	unsetenv("EICBENCH_CACHE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split),
		cmocka_unit_test(paths),
		cmocka_unit_test(external),
		cmocka_unit_test(users),
		cmocka_unit_test(checksums),
		cmocka_unit_test(pg_major),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
