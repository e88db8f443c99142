/*
 * test_record: result folders under a mkdtemp directory (timestamps, -2/-3
 * suffixes, --out rules), append and reload, a torn last line tolerated and
 * cut by the next append, a bad middle line rejected with its number, resume
 * keys, CSV quoting, meta.json and the redaction of secrets: connection
 * strings in both forms, command-line arguments (and a --restart-cmd),
 * a command line joined for a lock's holder, and messages, each against a
 * table that holds forms that must be left alone too.
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

#include <libpq-fe.h>

#include "bench/record/record.h"
#include "bench/cli/redact.h"
#include "io/rng.h"

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
		T(test_redact_dsn),
		T(test_redact_libpq_secrets),
		T(test_redact_keeps_what_libpq_reads),
		T(test_redact_arg),
		T(test_redact_argv_and_cmdline),
		T(test_no_record_cmd),
		T(test_redact_message),
		T(test_redact_libpq_messages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
