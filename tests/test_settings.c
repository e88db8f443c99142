/*
 * test_settings: the settings journal: its JSON round-trips, a damaged or
 * crafted journal is refused whole (never half-read, never overflowing a
 * field), and where it is kept for a managed cluster and a --dsn server.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pg/settings.h"

static void round_trip(void **state)
{
	struct settings_journal j = { .n = 2 }, back = { 0 };
	char err[512], *text;

	(void)state;
	snprintf(j.owner, sizeof(j.owner), "eicbench sweep, pid 7");
	j.ch[0] = (struct settings_change){ "shared_buffers", SETTINGS_RESTART, true, "256MB", "256MB" };
	j.ch[1] = (struct settings_change){ "fsync", SETTINGS_RELOAD, false, "", "on" };
	text = settings_journal_dump(&j);
	assert_non_null(text);
	assert_int_equal(settings_journal_parse(&back, text, err, sizeof(err)), 0);
	free(text);
	assert_int_equal(back.n, 2);
	assert_string_equal(back.owner, "eicbench sweep, pid 7");
	assert_string_equal(back.ch[0].name, "shared_buffers");
	assert_int_equal(back.ch[0].context, SETTINGS_RESTART);
	assert_true(back.ch[0].had_auto);
	assert_string_equal(back.ch[0].auto_value, "256MB");
	assert_string_equal(back.ch[1].before, "on");
	assert_false(back.ch[1].had_auto);
}

static void refused(void **state)
{
	static const char *const bad[] = {
		"", "not json", "{}", "{\"changes\": 3}",
		"{\"changes\": [{\"name\": \"fsync\"}]}",
		"{\"changes\": [{\"name\": \"fsync\", \"context\": \"never\", \"had_auto\": false, \"auto_value\": \"\", \"before\": \"on\"}]}",
		"{\"changes\": [{\"name\": \"fsync\", \"context\": \"reload\", \"had_auto\": 1, \"auto_value\": \"\", \"before\": \"on\"}]}",
		"{\"changes\": [{\"name\": 5, \"context\": \"reload\", \"had_auto\": false, \"auto_value\": \"\", \"before\": \"on\"}]}",
	};
	struct settings_journal j = { .path = "/x/j" };
	char err[512], *big, *many;
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(settings_journal_parse(&j, bad[i], err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "/x/j: not a settings journal"));
	}
	/* a name longer than its field: refused, not cut or overflowed */
	big = malloc(4096);
	snprintf(big, 4096, "{\"changes\": [{\"name\": \"%0300d\", \"context\": \"reload\", \"had_auto\": false, \"auto_value\": \"\", \"before\": \"on\"}]}", 1);
	assert_int_equal(settings_journal_parse(&j, big, err, sizeof(err)), -EINVAL);
	free(big);
	/* more changes than a journal holds */
	many = malloc(64 * 1024);
	n += (size_t)sprintf(many + n, "{\"changes\": [");
	for (int i = 0; i <= SETTINGS_MAX; i++)
		n += (size_t)sprintf(many + n, "%s{\"name\": \"s%d\", \"context\": \"reload\", \"had_auto\": false, \"auto_value\": \"\", \"before\": \"x\"}",
				     i ? "," : "", i);
	sprintf(many + n, "]}");
	assert_int_equal(settings_journal_parse(&j, many, err, sizeof(err)), -EINVAL);
	free(many);
}

static void places(void **state)
{
	struct server managed = { .external = false }, ext = { .external = true };
	struct settings_journal j, k;
	char err[512];

	(void)state;
	snprintf(managed.datadir, sizeof(managed.datadir), "/srv/pg");
	assert_int_equal(settings_journal_init(&j, &managed, "eicbench sweep", err, sizeof(err)), 0);
	assert_string_equal(j.path, "/srv/pg/" SETTINGS_JOURNAL);
	assert_non_null(strstr(j.owner, "eicbench sweep, pid "));
	setenv("XDG_STATE_HOME", "/tmp", 1);
	ext.dsn = "host=db1 password=secret";
	assert_int_equal(settings_journal_init(&j, &ext, "x", err, sizeof(err)), 0);
	/* one journal per server, the password no part of its name */
	ext.dsn = "host=db1 password=other";
	assert_int_equal(settings_journal_init(&k, &ext, "x", err, sizeof(err)), 0);
	assert_string_equal(j.path, k.path);
	assert_null(strstr(j.path, "secret"));
	ext.dsn = "host=db2";
	assert_int_equal(settings_journal_init(&k, &ext, "x", err, sizeof(err)), 0);
	assert_string_not_equal(j.path, k.path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(refused),
		cmocka_unit_test(places),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
