/*
 * run_versions: "eicbench run --pg 15,18": the whole run once per major
 * version named, each in a cluster of its own (the data directory given,
 * or data/pg, with "-pgN" added) and a folder of its own (pgN/ in the
 * run's folder), one after the other, then each version's verdict in two
 * lines: its answer and what the value does on that version. Every
 * version's binaries and data directory are checked before anything is
 * made; the first version's run checks the other options before it makes
 * its own folder. Each run is this program again (the same options, with
 * --pg N, --datadir and --out its own), so each is resumable on its own
 * (eicbench run --resume FOLDER/pgN).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/cmd/cmd.h"
#include "bench/cmd/run.h"
#include "bench/judge/judge.h"
#include "bench/pg/lock.h"
#include "bench/pg/server.h"
#include "bench/record/record_path.h"
#include "bench/record/semantics.h"

#define MAX_VERSIONS 4

/* Where --NAME's value is in ARGV (its index), or -1; *INLINE when given
 * as --NAME=VALUE. */
static int find_opt(int argc, char **argv, const char *name, int *inline_value)
{
	size_t n = strlen(name);

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return -1;
		if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, name, n)) {
			if (argv[i][2 + n] == '=') {
				*inline_value = 1;
				return i;
			}
			if (!argv[i][2 + n] && i + 1 < argc) {
				*inline_value = 0;
				return i + 1;
			}
		}
	}
	return -1;
}

static const char *opt_value(int argc, char **argv, const char *name)
{
	int in = 0, i = find_opt(argc, argv, name, &in);

	return i < 0 ? NULL : in ? strchr(argv[i], '=') + 1 : argv[i];
}


static int bad(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "eicbench run: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return EXIT_BAD_INPUT;
}

/* LIST into MAJORS: 10..99, each once. */
static int parse_list(const char *list, int *majors, int *n)
{
	const char *p = list;

	*n = 0;
	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || (*end && *end != ',') || v < 10 || v > 99 || *n == MAX_VERSIONS)
			return -1;
		for (int k = 0; k < *n; k++)
			if (majors[k] == v)
				return -1;
		majors[(*n)++] = (int)v;
		p = *end ? end + 1 : end;
	}
	return *n >= 2 ? 0 : -1;
}

/* ARGV without --pg, --datadir and --out (and their values), then those
 * three for version MAJOR; NULL-terminated, into RES (argc + 9 slots);
 * how many before the NULL. */
static int child_argv(int argc, char **argv, int major, const char *datadir, const char *out,
		       char **res, char *pg)
{
	static const char *const drop[] = { "pg", "datadir", "out", NULL };
	int k = 0;

	res[k++] = "eicbench";
	res[k++] = "run";
	for (int i = 0; i < argc; i++) {
		int skip = 0;

		for (const char *const *d = drop; *d && !skip; d++) {
			size_t n = strlen(*d);

			if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, *d, n) &&
			    (argv[i][2 + n] == '=' || !argv[i][2 + n]))
				skip = argv[i][2 + n] == '=' ? 1 : 2;
		}
		if (skip)
			i += skip - 1;
		else
			res[k++] = argv[i];
	}
	snprintf(pg, 8, "%d", major);
	res[k++] = "--pg";
	res[k++] = pg;
	res[k++] = "--datadir";
	res[k++] = (char *)datadir;
	res[k++] = "--out";
	res[k++] = (char *)out;
	res[k] = NULL;
	return k;
}

static volatile sig_atomic_t child_pid;

static void pass_on(int sig)
{
	if (child_pid > 0)
		kill(child_pid, sig);
}

/* Run ARGV (this program) and wait; its exit status, 128+N when killed. */
static int run_child(char **cargv)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return EXIT_RUN_FAILED;
	if (pid == 0) {
		execv("/proc/self/exe", cargv);
		_exit(127);
	}
	child_pid = pid;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* One version's answer in a line, and what the value does there. */
static void say_version(FILE *f, int major, const char *dir)
{
	struct judgement *j = calloc(1, sizeof(*j));
	char err[512];
	const char *a = NULL;
	int vnum = major * 10000;

	if (j && judge_run(dir, j, err, sizeof(err)) == 0) {
		a = j->decided ? judge_answer(&j->storage) : NULL;
		for (int i = 0; i < j->run.nq; i++)
			if (j->run.q[i].have_rep && j->run.q[i].rep.version_num)
				vnum = (int)j->run.q[i].rep.version_num;
		fprintf(f, "- PostgreSQL %d: %s %s (%s)\n  %s\n", major,
			a && j->storage.d.decided ? "set effective_io_concurrency =" : a ? "no decision yet, leading" : "no answer",
			a ? a : "", dir, semantics_eic(vnum));
	} else
		fprintf(f, "- PostgreSQL %d: no verdict (%s)\n", major, j ? err : "out of memory");
	if (j)
		judge_free(j);
	free(j);
}

static int run_versions(int argc, char **argv, const char *list)
{
	int majors[MAX_VERSIONS], n, ret = 0;
	const char *datadir = opt_value(argc, argv, "datadir");
	const char *out = opt_value(argc, argv, "out");
	char dir[PATH_MAX], err[2048], dirs[MAX_VERSIONS][PATH_MAX], outs[MAX_VERSIONS][PATH_MAX + 8];
	char **cargv = calloc((size_t)argc + 10, sizeof(*cargv)), pg[8], path[PATH_MAX + 32];
	struct sigaction sa = { .sa_handler = pass_on }, ign = { .sa_handler = SIG_IGN };
	FILE *f;

	if (!cargv)
		return EXIT_RUN_FAILED;
	if (parse_list(list, majors, &n) < 0)
		ret = bad("--pg '%s': give major versions from 10 to 99, comma-separated, each once (at most 4)%s", list, "");
	else if (opt_value(argc, argv, "dsn") || opt_value(argc, argv, "pgbin") || opt_value(argc, argv, "resume"))
		ret = bad("--pg '%s' measures each version in a managed cluster of its own: not with --%s", list,
			  opt_value(argc, argv, "dsn") ? "dsn" : opt_value(argc, argv, "pgbin") ? "pgbin" : "resume");
	for (int i = 0; i < argc && !ret; i++)
		if (!strcmp(argv[i], "--json"))
			ret = bad("--json with --pg '%s': each version's folder has its verdict (eicbench report FOLDER/pgN --json)%s",
				  list, "");
	for (int k = 0; k < n && !ret; k++) {	/* every version's run checked, first */
		int m;

		snprintf(dirs[k], sizeof(dirs[k]), "%s-pg%d", datadir ? datadir : SERVER_DEFAULT_DATADIR, majors[k]);
		snprintf(outs[k], sizeof(outs[k]), "%s/pg%d", out ? out : "results/new-run", majors[k]);
		m = child_argv(argc, argv, majors[k], dirs[k], outs[k], cargv, pg);
		if (run_check(m - 2, cargv + 2, err, sizeof(err)) < 0)
			ret = bad("PostgreSQL %s: %s", pg, err);
	}
	if (!ret && lock_hold_new_folder("run", out, dir, sizeof(dir), err, sizeof(err)) < 0)
		ret = bad("%s%s", err, "");
	if (ret) {
		free(cargv);
		return ret;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGINT, &ign, NULL);	/* the terminal's Ctrl-C reaches the run itself */
	fprintf(stderr, "eicbench run: PostgreSQL %s, one run each, one after the other; records in %s\n", list, dir);
	for (int k = 0; k < n && ret == 0; k++) {
		snprintf(outs[k], sizeof(outs[k]), "%s/pg%d", dir, majors[k]);
		child_argv(argc, argv, majors[k], dirs[k], outs[k], cargv, pg);
		fprintf(stderr, "\n==== eicbench run: PostgreSQL %d, in %s (%d of %d)\n", majors[k], dirs[k], k + 1, n);
		ret = run_child(cargv);
	}
	free(cargv);
	if (ret == EXIT_BAD_INPUT)
		return ret;
	snprintf(path, sizeof(path), "%s/versions.md", dir);
	f = fopen(path, "w");
	fprintf(stdout, "\n");
	for (int k = 0; k < n; k++) {
		if (access(outs[k], F_OK) != 0)
			break;
		say_version(stdout, majors[k], outs[k]);
		if (f)
			say_version(f, majors[k], outs[k]);
	}
	if (f)
		fclose(f);
	if (ret)
		fprintf(stderr, "eicbench run: stopped; go on with eicbench run --resume on the version's folder, then the next version\n");
	return ret;
}

int cmd_run_versions(int argc, char **argv)
{
	const char *list = opt_value(argc, argv, "pg");

	return list && strchr(list, ',') ? run_versions(argc, argv, list) : cmd_run(argc, argv);
}
