/*
 * test_stepfile: sweep files: steps in file order, cumulative steps carrying
 * the settings before them and independent ones not, an empty step kept,
 * [sweep]'s options with their lines, and every bad file refused with its
 * line named. Also the plan of steps built from it and back from its JSON.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/sweep/stepfile.h"

static const char cumulative[] =
	"; the steps of a tuning post\n"
	"[sweep]\n"
	"mode = cumulative\n"
	"workload = tpcb\n"
	"clients = 4\n"
	"\n"
	"[defaults]\n"
	"[fsync off]\n"
	"fsync = off\n"
	"[shared_buffers 1GB]\n"
	"shared_buffers = 1GB   ; a comment after the value\n"
	"[fsync on again]\n"
	"fsync = on\n";

static const char *value(const struct sweep_plan *p, int step, const char *name)
{
	int i = sweep_grid_find(&p->grid, name);

	return i < 0 ? NULL : sweep_value(p, step, i);
}

static void cumulative_steps(void **state)
{
	struct stepfile *sf = calloc(1, sizeof(*sf));
	struct sweep_plan p;
	char err[1024];
	int line;

	(void)state;
	assert_int_equal(stepfile_parse(cumulative, "t.ini", sf, err, sizeof(err)), 0);
	assert_true(sf->cumulative);
	assert_int_equal(sf->steps.nsteps, 4);
	assert_string_equal(sf->steps.name[0], "defaults");
	assert_string_equal(sf->steps.name[3], "fsync on again");
	assert_string_equal(stepfile_option(sf, "workload", &line), "tpcb");
	assert_int_equal(line, 4);
	assert_null(stepfile_option(sf, "jobs", NULL));
	assert_int_equal(sf->step_line[2], 10);
	assert_int_equal(stepfile_line(sf, 2, sweep_grid_find(&sf->grid, "shared_buffers")), 11);
	assert_int_equal(sweep_plan_steps(&p, &sf->grid, &sf->steps, 2, 9, err, sizeof(err)), 0);
	assert_int_equal(p.ncombos, 4);
	assert_int_equal(p.ntrials, 8);
	/* the first step sets nothing; later ones carry what came before */
	assert_null(value(&p, 0, "fsync"));
	assert_null(value(&p, 0, "shared_buffers"));
	assert_string_equal(value(&p, 1, "fsync"), "off");
	assert_null(value(&p, 1, "shared_buffers"));
	assert_string_equal(value(&p, 2, "fsync"), "off");
	assert_string_equal(value(&p, 2, "shared_buffers"), "1GB");
	assert_string_equal(value(&p, 3, "fsync"), "on");
	assert_string_equal(value(&p, 3, "shared_buffers"), "1GB");
	assert_non_null(strstr(p.trials[0].key, " step="));
	/* the plan survives meta.json */
	{
		json_t *j = sweep_plan_json(&p);
		struct sweep_plan back;

		assert_int_equal(sweep_plan_from_json(&back, j, err, sizeof(err)), 0);
		assert_true(sweep_plan_same(&p, &back));
		assert_string_equal(value(&back, 3, "shared_buffers"), "1GB");
		assert_null(value(&back, 1, "shared_buffers"));
		sweep_plan_free(&back);
		json_decref(j);
	}
	sweep_plan_free(&p);
	free(sf);
}

static void independent_steps(void **state)
{
	static const char text[] = "[sweep]\nmode = independent\n[a]\nwork_mem = 8MB\n[b]\nfsync = off\n";
	struct stepfile *sf = calloc(1, sizeof(*sf));
	struct sweep_plan p;
	char err[1024];

	(void)state;
	assert_int_equal(stepfile_parse(text, "i.ini", sf, err, sizeof(err)), 0);
	assert_false(sf->cumulative);
	assert_int_equal(sweep_plan_steps(&p, &sf->grid, &sf->steps, 1, 1, err, sizeof(err)), 0);
	assert_string_equal(value(&p, 0, "work_mem"), "8MB");
	assert_null(value(&p, 1, "work_mem"));	/* not carried */
	assert_string_equal(value(&p, 1, "fsync"), "off");
	sweep_plan_free(&p);
	free(sf);
}

static const struct { const char *text, *words; } bad[] = {
	{ "", "no step" },
	{ "; only a comment\n[sweep]\nmode = cumulative\n", "no step" },
	{ "fsync = off\n[a]\n", "line 1: a setting outside any step" },
	{ "[a]\nfsync = off\nfsync = on\n", "line 3: set twice in one step: 'fsync'" },
	{ "[a]\n[a]\n", "line 2: a section given twice: 'a'" },
	{ "[sweep]\nmode = sideways\n[a]\n", "line 2: mode must be cumulative or independent" },
	{ "[sweep]\nmode = cumulative\nmode = independent\n[a]\n", "line 3: given twice in [sweep]" },
	{ "[a]\nthis line has no equals sign\n", "line 2: not INI" },
	{ "[a]\nFsync = off\n", "line 1: step 'a': Fsync = off: not a setting name" },
	{ "[a]\nfsync =\n", "line 2: a setting without a value" },
	{ "[a/b]\n", "line 1: step 'a/b'" },
	{ "[a]\neffective_io_concurrency = 010\n", "line 2: effective_io_concurrency: '010' is not written plainly; the server reads it as 8 (a leading 0 is octal): give 8" },
	{ "[a]\neffective_io_concurrency = 16\n[b]\neffective_io_concurrency = 2000\n", "line 4: effective_io_concurrency: '2000' is not allowed; give a whole number from 0 to 1000" },
	{ "[a]\nwork_mem = 4\tMB\n", "line 2: a control character (a tab or other) in '4\\tMB'" },
	{ "[sweep]\nquery = q\x01.sql\n[a]\n", "line 2: a control character (a tab or other) in 'q\\x01.sql'" },
};

/* A sweep file's name with a control character is refused before it is read. */
static void path_refused(void **state)
{
	struct stepfile *sf = calloc(1, sizeof(*sf));
	char err[1024] = "";

	(void)state;
	assert_int_equal(stepfile_load("/tmp/a\nb.ini", sf, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "the sweep file: '/tmp/a\\nb.ini' holds a control character; give printable characters only (no newline, tab or other control character)");
	free(sf);
}

static void refused(void **state)
{
	struct stepfile *sf = calloc(1, sizeof(*sf));

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[1024] = "";

		assert_int_equal(stepfile_parse(bad[i].text, "bad.ini", sf, err, sizeof(err)), -EINVAL);
		if (!strstr(err, bad[i].words) || !strstr(err, "bad.ini"))
			fail_msg("case %zu: \"%s\" not in \"%s\"", i, bad[i].words, err);
	}
	assert_int_equal(stepfile_load("/nonexistent.ini", sf, (char[256]){ 0 }, 256), -EINVAL);
	free(sf);
}

/* TEXT with a line of LEN bytes: PREFIX, padding, then TAIL, in step [a]
 * (which also sets fsync after it). */
static char *long_line(const char *prefix, size_t len, const char *tail)
{
	char *t = malloc(len + 64);
	size_t at;

	at = (size_t)sprintf(t, "[a]\n%s", prefix);
	memset(t + at, 'x', len - strlen(prefix) - strlen(tail));
	at += len - strlen(prefix) - strlen(tail);
	sprintf(t + at, "%s\nfsync = off\n", tail);
	return t;
}

/* A comment longer than libinih's line is one comment, whole: its tail is
 * not read as a setting. A setting's line that long is refused by line. */
static void long_lines(void **state)
{
	struct stepfile *sf = calloc(1, sizeof(*sf));
	char err[1024] = "", *t;

	(void)state;
	t = long_line("; ", 5000, "shared_buffers = 1GB");
	assert_int_equal(stepfile_parse(t, "long.ini", sf, err, sizeof(err)), 0);
	assert_int_equal(sweep_grid_find(&sf->grid, "shared_buffers"), -1);
	assert_true(sweep_grid_find(&sf->grid, "fsync") >= 0);
	assert_int_equal(stepfile_line(sf, 0, sweep_grid_find(&sf->grid, "fsync")), 3);
	free(t);
	t = long_line("   # ", 5000, "[b]");
	assert_int_equal(stepfile_parse(t, "long.ini", sf, err, sizeof(err)), 0);
	assert_int_equal(sf->steps.nsteps, 1);
	free(t);
	t = long_line("application_name = ", 5000, "; shared_buffers = 1GB");
	assert_int_equal(stepfile_parse(t, "long.ini", sf, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "long.ini line 2: a line of 5000 bytes; a line holds at most "));
	free(t);
	free(sf);
}

/* A NUL byte in the file is refused with its line, not taken as the end. */
static void nul_refused(void **state)
{
	static const char text[] = "[a]\nfsync = off\n\0shared_buffers = 1GB\n";
	char path[] = "/tmp/test_stepfile.XXXXXX", err[1024] = "";
	struct stepfile *sf = calloc(1, sizeof(*sf));
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (int)sizeof(text) - 1);
	close(fd);
	assert_int_equal(stepfile_load(path, sf, err, sizeof(err)), -EINVAL);
	unlink(path);
	assert_non_null(strstr(err, " line 3: a NUL byte"));
	free(sf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cumulative_steps),
		cmocka_unit_test(independent_steps),
		cmocka_unit_test(refused),
		cmocka_unit_test(path_refused),
		cmocka_unit_test(long_lines),
		cmocka_unit_test(nul_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
