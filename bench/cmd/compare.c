/*
 * cmd_compare: "eicbench compare A B [...]": result folders side by side
 * (bench/report/compare.h), printed, and written with their plots into a new
 * folder results/<UTC>-compare (or --out DIR). Folders of different data
 * sets are refused unless --force.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench/pg/lock.h"
#include "bench/cmd/cmd.h"
#include "bench/cli/manpage.h"
#include "bench/report/compare.h"
#include "bench/cli/opts.h"
#include "bench/record/record.h"

struct compare_opts {
	struct opt_args dirs;
	const char *format;
	const char *out;
	bool force, no_plot;
};

/* --json, as the other commands spell it: --format json */
static int take_json(void *cfg, const char *value, char *err, size_t errlen)
{
	(void)value, (void)err, (void)errlen;
	((struct compare_opts *)cfg)->format = "json";
	return 0;
}

static const struct opt_desc compare_table[] = {
	{ "result folder", OPT_ARGS, offsetof(struct compare_opts, dirs), 0, 0, "DIR", NULL,
	  "two to eight result folders of eicbench sweep or eicbench run, the first the baseline" },
	{ "format", OPT_STR, offsetof(struct compare_opts, format), 0, 0, "text|md|json", "text",
	  "what to print" },
	{ "json", OPT_CALL_FLAG, 0, 0, 0, NULL, NULL, "the same as --format json (as run --json)", 0, take_json },
	{ "out", OPT_OUT, offsetof(struct compare_opts, out), 0, 0, "DIR",
	  "results/<UTC>-compare", "where compare.md, compare.json and the plots go (new or empty)" },
	{ "force", OPT_FLAG, offsetof(struct compare_opts, force), 0, 0, NULL, NULL,
	  "compare folders of different data sets anyway (the output says so)" },
	{ "no-plot", OPT_FLAG, offsetof(struct compare_opts, no_plot), 0, 0, NULL, NULL,
	  "do not run gnuplot" },
	{ 0 }
};

#define USAGE "eicbench compare DIR DIR [DIR...] [--format text|md|json] [--out DIR] [--force] [--no-plot]"

static int compare_failed(int ret, const char *msg)
{
	return cmd_fail("compare", ret, msg);
}

static int write_outputs(const struct compare *c, const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *j = compare_json(c);
	int ret;

	if (!f || !j)
		return -ENOMEM;
	compare_render(c, 1, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/compare.md", dir);
	ret = record_write_file_atomic(path, buf, len, err, errlen);
	free(buf);
	if (ret == 0) {
		char *text = json_dumps(j, JSON_INDENT(2));

		snprintf(path, sizeof(path), "%s/compare.json", dir);
		ret = text ? record_write_file_atomic(path, text, strlen(text), err, errlen) : -ENOMEM;
		free(text);
	}
	json_decref(j);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { 0 };
	char err[2048], dir[PATH_MAX], msg[1024] = "";
	struct compare c;
	int n, ret;

	ret = opts_parse(compare_table, &o, argc, argv, err, sizeof(err));
	if (ret == 1) {
		opts_usage(stdout, USAGE, compare_table);
		return 0;
	}
	n = o.dirs.n < COMPARE_MAX_SIDES + 1 ? o.dirs.n : COMPARE_MAX_SIDES + 1;
	if (ret == 0)
		ret = opts_check_paths("result folder", (char *const *)o.dirs.v, n, err, sizeof(err));
	if (ret < 0)
		return compare_failed(ret, err);
	if (o.format && strcmp(o.format, "text") && strcmp(o.format, "md") && strcmp(o.format, "json"))
		return snprintf(err, sizeof(err), "--format %s: give text, md or json", o.format), compare_failed(-EINVAL, err);
	ret = compare_load(o.dirs.v, n, o.force, &c, err, sizeof(err));
	if (ret == 0)
		ret = lock_hold_new_folder("compare", o.out, dir, sizeof(dir), err, sizeof(err));
	if (ret == 0)
		ret = write_outputs(&c, dir, err, sizeof(err));
	if (ret == 0 && !o.no_plot && compare_plot(&c, dir, msg, sizeof(msg)) < 0)
		fprintf(stderr, "eicbench compare: plots failed: %s\n", msg);
	if (ret == 0 && o.format && !strcmp(o.format, "json")) {
		json_t *j = compare_json(&c);

		json_dumpf(j, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(j);
	} else if (ret == 0)
		compare_render(&c, o.format && !strcmp(o.format, "md"), stdout);
	if (ret == 0)
		fprintf(stderr, "Written to %s: compare.md, compare.json%s%s\n", dir,
			msg[0] ? "; plots: " : "", msg);
	compare_free(&c);
	return ret < 0 ? compare_failed(ret, err) : 0;
}

static const struct man_form compare_forms[] = { { NULL, USAGE, compare_table }, { 0 } };

static const struct man_example compare_examples[] = {
	{ "eicbench compare results/old-disk-run results/new-disk-run",
	  "Old disk against new disk: per query, each value's median on both with the ratio and its interval." },
	{ "eicbench compare results/pg15-sweep results/pg18-sweep --format md",
	  "PostgreSQL 15 against 18 on the same data set, as Markdown." },
	{ 0 }
};

const struct man_page cmd_compare_page = {
	.name = "compare",
	.summary = "result folders side by side: devices, versions, settings",
	.forms = compare_forms,
	.description =
	"Puts two to eight result folders side by side (sweeps, or runs holding one sweep per query) to answer \"old disk or new disk\", \"15 or 18\", \"this setting or that\". Per query, one line per folder (or per series of it, when it swept another setting too): the median of each value with its interval, each line's own recommendation, and for every line after the first its median over the first line's at each value with a 95% bootstrap interval: faster, slower, or same when the interval holds 1.\n\n"
	"Folders of different data sets (rows, seed, recipe, or the query's text) are refused, naming what differs, unless --force. It writes compare.md, compare.json and a plot per query into the output folder.",
	.examples = compare_examples,
	.see_also = "report sweep run",
	.guide = "eicbench compare",
};
