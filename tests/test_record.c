/*
 * test_record: result folders under a mkdtemp directory (timestamps, -2/-3
 * suffixes, --out rules), append and reload, a torn last line tolerated and
 * cut by the next append, a bad middle line rejected with its number, resume
 * keys, CSV quoting, meta.json and the device's JSON (the redaction of
 * secrets is test_redact's).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/record/record.h"

#define STAMP_TIME ((time_t)1704164645)      /* 2024-01-02T03:04:05Z */

struct tmp {
	char dir[128];
	char err[512];
};

static int setup(void **state)
{
	struct tmp *t = calloc(1, sizeof(*t));

	snprintf(t->dir, sizeof(t->dir), "/tmp/test_record.XXXXXX");
	if (!mkdtemp(t->dir))
		return -1;
	*state = t;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	struct tmp *t = *state;

	nftw(t->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return 0;
}

static void write_text(const char *dir, const char *file, const char *text, const char *mode)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, mode);
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	assert_non_null(f);
	if (getdelim(&buf, &cap, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

/* ---- folders ---- */

static void test_stamped_folders(void **state)
{
	struct tmp *t = *state;
	char parent[512], path[PATH_MAX], want[PATH_MAX];
	static const char *const suffixes[] = { "", "-2", "-3" };

	snprintf(parent, sizeof(parent), "%s/nested/results", t->dir);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(record_dir_create_at(parent, "sweep", NULL, STAMP_TIME,
						      path, sizeof(path), t->err, sizeof(t->err)), 0);
		snprintf(want, sizeof(want), "%s/20240102T030405Z-sweep%s", parent, suffixes[i]);
		assert_string_equal(path, want);
		assert_int_equal(access(path, W_OK), 0);
	}
	assert_int_equal(record_dir_create(parent, "probe", NULL, path, sizeof(path),
					   t->err, sizeof(t->err)), 0);
	assert_non_null(strstr(path, "Z-probe"));
}

static void test_bad_command_names(void **state)
{
	struct tmp *t = *state;
	char path[PATH_MAX];
	static const char *const bad[] = { "", "../x", "a/b", "a b", NULL };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t->err[0] = '\0';
		assert_int_equal(record_dir_create_at(t->dir, bad[i], NULL, STAMP_TIME,
						      path, sizeof(path), t->err, sizeof(t->err)), -EINVAL);
		assert_non_null(strstr(t->err, "not allowed"));
	}
}

static void test_explicit_out(void **state)
{
	struct tmp *t = *state;
	char out[512], path[PATH_MAX];
	char *kept;

	snprintf(out, sizeof(out), "%s/a/b/mine", t->dir);
	assert_int_equal(record_dir_create(NULL, "run", out, path, sizeof(path),
					   t->err, sizeof(t->err)), 0);
	assert_string_equal(path, out);
	/* Empty and existing: fine again, also with a lock file left behind. */
	assert_int_equal(record_dir_create(NULL, "run", out, path, sizeof(path),
					   t->err, sizeof(t->err)), 0);
	write_text(out, RECORD_LOCK, "", "w");
	assert_int_equal(record_dir_create(NULL, "run", out, path, sizeof(path),
					   t->err, sizeof(t->err)), 0);
	write_text(out, "trials.jsonl", "{\"keep\":1}\n", "w");
	assert_int_equal(record_dir_create(NULL, "run", out, path, sizeof(path),
					   t->err, sizeof(t->err)), -EEXIST);
	assert_non_null(strstr(t->err, "never overwritten"));
	snprintf(path, sizeof(path), "%s/trials.jsonl", out);
	kept = read_text(path);
	assert_string_equal(kept, "{\"keep\":1}\n");
	free(kept);
}

/* As root under sudo, folders, records and other files end up the user's. */
static void test_owner_under_sudo(void **state)
{
	struct tmp *t = *state;
	char out[512], path[PATH_MAX], f[PATH_MAX + 32];
	struct stat st;
	json_t *o = json_pack("{s:i}", "a", 1);

	if (geteuid() != 0) {
		json_decref(o);
		skip();
	}
	setenv("SUDO_UID", "65534", 1);
	setenv("SUDO_GID", "65533", 1);
	snprintf(out, sizeof(out), "%s/made/here", t->dir);
	assert_int_equal(record_dir_create(NULL, "run", out, path, sizeof(path), t->err, sizeof(t->err)), 0);
	assert_int_equal(stat(out, &st), 0);
	assert_true(st.st_uid == 65534 && st.st_gid == 65533);
	snprintf(f, sizeof(f), "%s/made", t->dir);
	assert_int_equal(stat(f, &st), 0);
	assert_int_equal(st.st_uid, 65534);
	assert_int_equal(record_append(out, RECORD_TRIALS, o, t->err, sizeof(t->err)), 0);
	assert_int_equal(record_meta_write(out, o, t->err, sizeof(t->err)), 0);
	write_text(out, "plot.svg", "<svg/>", "w");
	snprintf(f, sizeof(f), "%s/plot.svg", out);
	assert_int_equal(stat(f, &st), 0);
	assert_int_equal(st.st_uid, 0);
	assert_int_equal(record_settle_owner(out), 0);
	const char *const names[] = { RECORD_TRIALS, RECORD_META, "plot.svg" };
	for (int i = 0; i < 3; i++) {
		snprintf(f, sizeof(f), "%s/%s", out, names[i]);
		assert_int_equal(stat(f, &st), 0);
		assert_true(st.st_uid == 65534 && st.st_gid == 65533);
	}
	/* Without sudo's variables, root's files stay root's. */
	unsetenv("SUDO_UID");
	snprintf(out, sizeof(out), "%s/mine", t->dir);
	assert_int_equal(record_dir_create(NULL, "run", out, path, sizeof(path), t->err, sizeof(t->err)), 0);
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_uid, 0);
	unsetenv("SUDO_GID");
	json_decref(o);
}

/* ---- trials.jsonl ---- */

static void append_n(struct tmp *t, int from, int to)
{
	for (int i = from; i < to; i++) {
		json_t *o = json_pack("{s:i, s:s}", "eic", i, "note", "a\nb \"q\"");

		assert_int_equal(record_append(t->dir, RECORD_TRIALS, o, t->err, sizeof(t->err)), 0);
		json_decref(o);
	}
}

static json_t *load_ok(struct tmp *t, size_t want, int want_torn)
{
	json_t *a = NULL;
	int torn = -1;

	assert_int_equal(record_load(t->dir, RECORD_TRIALS, &a, &torn, t->err, sizeof(t->err)), 0);
	assert_int_equal(json_array_size(a), want);
	assert_int_equal(torn, want_torn);
	return a;
}

static void test_append_and_load(void **state)
{
	struct tmp *t = *state;
	json_t *a;
	char path[PATH_MAX];
	char *text;

	append_n(t, 0, 3);
	a = load_ok(t, 3, 0);
	for (int i = 0; i < 3; i++) {
		json_t *o = json_array_get(a, (size_t)i);

		assert_int_equal(json_integer_value(json_object_get(o, "eic")), i);
		assert_string_equal(json_string_value(json_object_get(o, "note")), "a\nb \"q\"");
	}
	json_decref(a);
	snprintf(path, sizeof(path), "%s/%s", t->dir, RECORD_TRIALS);
	text = read_text(path);
	assert_string_equal(text, "{\"eic\":0,\"note\":\"a\\nb \\\"q\\\"\"}\n"
				  "{\"eic\":1,\"note\":\"a\\nb \\\"q\\\"\"}\n"
				  "{\"eic\":2,\"note\":\"a\\nb \\\"q\\\"\"}\n");
	free(text);
}

static void test_torn_last_line(void **state)
{
	struct tmp *t = *state;
	json_t *a;

	append_n(t, 0, 2);
	write_text(t->dir, RECORD_TRIALS, "{\"eic\":2,\"no", "a");
	a = load_ok(t, 2, 1);
	assert_non_null(strstr(t->err, "line 3"));
	assert_non_null(strstr(t->err, "partial"));
	json_decref(a);
	/* Whole JSON but no newline: still torn (the write did not finish). */
	append_n(t, 2, 3);
	write_text(t->dir, RECORD_TRIALS, "{\"eic\":3}", "a");
	json_decref(load_ok(t, 3, 1));
	append_n(t, 3, 4);
	a = load_ok(t, 4, 0);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(a, 3), "eic")), 3);
	json_decref(a);
}

static void test_torn_only_line(void **state)
{
	struct tmp *t = *state;

	write_text(t->dir, RECORD_TRIALS, "{\"ei", "w");
	json_decref(load_ok(t, 0, 1));
	append_n(t, 0, 1);
	json_decref(load_ok(t, 1, 0));
}

static const struct {
	const char *text, *message_part;
} bad_files[] = {
	{ "{\"a\":1}\ngarbage\n{\"a\":3}\n", "line 2" },
	{ "{\"a\":1}\n{\"a\":2}\n[1,2]\n{\"a\":4}\n", "line 3: a record must be a JSON object" },
	{ "{\"a\":1,\"a\":2}\n", "line 1" },
	{ "{\"a\":1}\n{\"a\":\n{\"a\":3}", "line 2" },
};

static void test_bad_middle_line(void **state)
{
	struct tmp *t = *state;

	for (size_t i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
		json_t *a = (json_t *)1;

		write_text(t->dir, RECORD_TRIALS, bad_files[i].text, "w");
		assert_int_equal(record_load(t->dir, RECORD_TRIALS, &a, NULL,
					     t->err, sizeof(t->err)), -EINVAL);
		assert_null(a);
		assert_non_null(strstr(t->err, bad_files[i].message_part));
	}
}

static void test_blank_lines_and_missing(void **state)
{
	struct tmp *t = *state;
	json_t *a = NULL;

	write_text(t->dir, RECORD_TRIALS, "{\"a\":1}\n\n{\"a\":2}\n", "w");
	json_decref(load_ok(t, 2, 0));
	assert_int_equal(record_load(t->dir, "absent.jsonl", &a, NULL, t->err, sizeof(t->err)), -ENOENT);
	assert_null(a);
}

static void test_append_refuses_non_object(void **state)
{
	struct tmp *t = *state;
	json_t *arr = json_array();

	assert_int_equal(record_append(t->dir, RECORD_TRIALS, arr, t->err, sizeof(t->err)), -EINVAL);
	json_decref(arr);
}

/* ---- resume ---- */

static void test_done_keys(void **state)
{
	json_t *recs = json_pack("[{s:s}, {s:s}, {s:i}, {}, {s:s}]",
				 "trial_key", "round=1 eic=16", "trial_key", "round=0 eic=0",
				 "trial_key", 5, "trial_key", "round=0 eic=0");
	static const char *const planned[] = {
		"round=0 eic=0", "round=0 eic=16", "round=1 eic=16", "round=1 eic=0",
	};
	static const bool want[] = { true, false, true, false };
	bool done[4];

	(void)state;
	assert_int_equal(record_done_keys(recs, RECORD_KEY_FIELD, planned, 4, done), 2);
	assert_memory_equal(done, want, sizeof(want));
	assert_int_equal(record_done_keys(json_array_get(recs, 0), RECORD_KEY_FIELD,
					  planned, 4, done), -EINVAL);
	json_decref(recs);
}

/* ---- CSV ---- */

static void test_csv(void **state)
{
	struct tmp *t = *state;
	static const char *const cols[] = { "name", "n", "ms", "ok", "explain.rows", "missing", "list" };
	json_t *rows = json_pack("[{s:s, s:i, s:f, s:b, s:{s:i}, s:[i,i]},"
				 " {s:s, s:I, s:f, s:n, s:o}, {s:s, s:f}]",
				 "name", "plain", "n", 1, "ms", 0.1, "ok", 1, "explain", "rows", 42, "list", 1, 2,
				 "name", "a,b \"c\"\nd", "n", (json_int_t)9007199254740993LL, "ms", 16300.0,
				 "ok", "explain", json_null(),
				 "name", " edge", "ms", 1.0 / 3);
	char path[PATH_MAX];
	char *text;

	snprintf(path, sizeof(path), "%s/summary.csv", t->dir);
	assert_int_equal(record_write_csv(path, rows, cols, 7, t->err, sizeof(t->err)), 0);
	text = read_text(path);
	assert_string_equal(text,
		"name,n,ms,ok,explain.rows,missing,list\n"
		"plain,1,0.1,true,42,,\"[1,2]\"\n"
		"\"a,b \"\"c\"\"\nd\",9007199254740993,16300,,,,\n"
		"\" edge\",,0.3333333333333333,,,,\n");
	free(text);
	assert_int_equal(record_write_csv(path, rows, cols, 0, t->err, sizeof(t->err)), -EINVAL);
	json_decref(rows);
}

/* ---- meta ---- */

static void test_meta(void **state)
{
	struct tmp *t = *state;
	char *argv[] = { "eicbench", "sweep", "--dsn=host=db password=hunter2 user=u",
			 "--dsn", "postgresql://u:hunter2@db/x?password=hunter2", "--eic", "0,1" };
	json_t *meta = json_object(), *back;
	char path[PATH_MAX];
	char *text;

	(void)state;
	assert_int_equal(record_meta_host(meta, 7, argv, STAMP_TIME), 0);
	assert_string_equal(json_string_value(json_object_get(meta, "started_utc")), "2024-01-02T03:04:05Z");
	assert_non_null(json_string_value(json_object_get(meta, "git_rev")));
	assert_true(json_integer_value(json_object_get(json_object_get(meta, "host"), "cpu_count")) >= 1);
	assert_true(json_integer_value(json_object_get(json_object_get(meta, "host"), "memory_bytes")) > 0);
	assert_string_equal(json_string_value(json_array_get(json_object_get(meta, "command_line"), 2)),
			    "--dsn=host=db user=u");
	assert_string_equal(json_string_value(json_array_get(json_object_get(meta, "command_line"), 4)),
			    "postgresql://u@db/x");
	assert_string_equal(json_string_value(json_array_get(json_object_get(meta, "command_line"), 6)), "0,1");
	assert_int_equal(record_meta_write(t->dir, meta, t->err, sizeof(t->err)), 0);
	snprintf(path, sizeof(path), "%s/%s", t->dir, RECORD_META);
	text = read_text(path);
	assert_null(strstr(text, "hunter2"));
	back = json_loads(text, 0, NULL);
	assert_true(json_equal(back, meta));
	free(text);
	json_decref(back);
	json_decref(meta);
}

static void test_atomic_replace_leaves_no_temp(void **state)
{
	struct tmp *t = *state;
	char path[PATH_MAX];
	char *text;
	struct stat st;

	snprintf(path, sizeof(path), "%s/report.md", t->dir);
	assert_int_equal(record_write_file_atomic(path, "old", 3, t->err, sizeof(t->err)), 0);
	assert_int_equal(record_write_file_atomic(path, "new!", 4, t->err, sizeof(t->err)), 0);
	text = read_text(path);
	assert_string_equal(text, "new!");
	free(text);
	snprintf(path, sizeof(path), "%s/report.md.tmp.%ld", t->dir, (long)getpid());
	assert_int_equal(stat(path, &st), -1);
	snprintf(path, sizeof(path), "%s/no/such/dir/x", t->dir);
	assert_true(record_write_file_atomic(path, "x", 1, t->err, sizeof(t->err)) < 0);
	assert_non_null(strstr(t->err, "cannot write"));
}

static void test_device_json(void **state)
{
	struct device_info d = { .name = "vda1", .disk = "vda", .model = "",
				 .scheduler = "mq-deadline", .rotational = 0,
				 .nr_requests = 256, .read_ahead_kb = -1,
				 .logical_block_size = 512 };
	json_t *j = record_device_json(&d);

	(void)state;
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "disk")), "vda");
	assert_true(json_is_null(json_object_get(j, "model")));
	assert_true(json_is_false(json_object_get(j, "rotational")));
	assert_true(json_is_null(json_object_get(j, "read_ahead_kb")));
	assert_int_equal(json_integer_value(json_object_get(j, "nr_requests")), 256);
	json_decref(j);
}


int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_stamped_folders),
		T(test_bad_command_names),
		T(test_explicit_out),
		T(test_owner_under_sudo),
		T(test_append_and_load),
		T(test_torn_last_line),
		T(test_torn_only_line),
		T(test_bad_middle_line),
		T(test_blank_lines_and_missing),
		T(test_append_refuses_non_object),
		T(test_done_keys),
		T(test_csv),
		T(test_meta),
		T(test_atomic_replace_leaves_no_temp),
		T(test_device_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
