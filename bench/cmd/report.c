/*
 * cmd_report: "eicbench report DIR": render a sweep's result folder again
 * from its records: summary.csv, report.md and the plots are rewritten in
 * DIR, and the table with its explanation (or CSV, Markdown, JSON) goes to
 * stdout. Notes about the plots go to stdout with text, else to stderr.
 */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/cmd/cmd.h"
#include "bench/cli/manpage.h"
#include "bench/cli/opts.h"
#include "bench/record/record.h"
#include "bench/report/report.h"
#include "bench/report/report_steps.h"
#include "bench/report/verdict.h"

struct report_opts {
	const char *dir;
	const char *format;
	bool no_plot;
};

/* --json, as the other commands spell it: --format json */
static int take_json(void *cfg, const char *value, char *err, size_t errlen)
{
	(void)value, (void)err, (void)errlen;
	((struct report_opts *)cfg)->format = "json";
	return 0;
}

static const struct opt_desc report_table[] = {
	{ "result folder", OPT_ARG, offsetof(struct report_opts, dir), 0, 0, "DIR", NULL,
	  "a result folder written by eicbench sweep, run or confsweep" },
	{ "format", OPT_STR, offsetof(struct report_opts, format), 0, 0, "text|csv|md|html|json", "text",
	  "what to print: the table and explanation, summary.csv, report.md, report.html, or JSON" },
	{ "json", OPT_CALL_FLAG, 0, 0, 0, NULL, NULL, "the same as --format json (as run --json)", 0, take_json },
	{ "no-plot", OPT_FLAG, offsetof(struct report_opts, no_plot), 0, 0, NULL, NULL,
	  "do not run gnuplot (sweep.svg and sweep.png stay as they are)" },
	{ 0 }
};

#define USAGE "eicbench report DIR [--format text|csv|md|html|json] [--no-plot]"

static const struct {
	const char *name;
	enum report_format format;
} formats[] = {
	{ "text", REPORT_TEXT }, { "csv", REPORT_CSV }, { "md", REPORT_MARKDOWN }, { "json", REPORT_JSON },
	{ "html", REPORT_HTML },
};

static int parse_format(const char *s, enum report_format *out)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(s, formats[i].name)) {
			*out = formats[i].format;
			return 0;
		}
	return -EINVAL;
}

/* DIR and the options, in any order. 0, 1 for --help, or -EINVAL after
 * printing why. */
static int parse(int argc, char **argv, struct report_opts *o, enum report_format *fmt)
{
	char err[OPT_ERR_MAX], msg[OPT_ERR_MAX + 256];
	struct stat st;
	int ret = opts_parse(report_table, o, argc, argv, err, sizeof(err));

	if (ret == 1) {
		opts_usage(stdout, USAGE, report_table);
		return 1;
	}
	if (ret < 0)
		return cmd_fail("report", ret, err), -EINVAL;
	if (!o->dir)
		return cmd_fail("report", -EINVAL, "give the result folder: " USAGE), -EINVAL;
	ret = stat(o->dir, &st) < 0 ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	if (ret < 0) {
		snprintf(msg, sizeof(msg), "%s: %s; give a result folder written by eicbench sweep",
			 o->dir, strerror(-ret));
		return cmd_fail("report", -EINVAL, msg), -EINVAL;
	}
	if (o->format && parse_format(o->format, fmt) < 0) {
		snprintf(msg, sizeof(msg), "--format %s: give text, csv, md, html or json", o->format);
		return cmd_fail("report", -EINVAL, msg), -EINVAL;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	enum report_format fmt = REPORT_TEXT;
	char err[2048] = "", note[1280] = "";
	int ret = parse(argc, argv, &o, &fmt);

	if (ret != 0)
		return ret == 1 ? 0 : EXIT_BAD_INPUT;
	if (report_steps_is(o.dir)) {
		if (fmt != REPORT_TEXT) {
			snprintf(err, sizeof(err), "%s: a confsweep's report is text (report.md and report.html are written beside); drop --format", o.dir);
			return cmd_fail("report", -EINVAL, err);
		}
		ret = report_steps_finish(o.dir, stdout, err, sizeof(err));
		return ret < 0 ? cmd_fail("report", ret == -ENOENT ? -EINVAL : ret, err) : 0;
	}
	if (record_folder_is(o.dir, "run"))
		ret = verdict_render(o.dir, fmt, !o.no_plot, stdout, note, sizeof(note), err, sizeof(err));
	else
		ret = report_folder(o.dir, fmt, !o.no_plot, stdout, note, sizeof(note), err, sizeof(err));
	if (ret == -ENOENT)
		ret = -EINVAL;          /* a folder without its records is bad input */
	if (ret < 0)
		return cmd_fail("report", ret, err);
	fprintf(fmt == REPORT_TEXT ? stdout : stderr, "%sWritten to %s: %s; %s\n",
		fmt == REPORT_TEXT ? "\n" : "", o.dir,
		record_folder_is(o.dir, "run") ? VERDICT_MD ", " VERDICT_HTML : REPORT_SUMMARY_CSV ", " REPORT_MD ", " REPORT_HTML_FILE, note);
	return 0;
}

static const struct man_form report_forms[] = { { NULL, USAGE, report_table }, { 0 } };

static const struct man_example report_examples[] = {
	{ "eicbench report results/20261201T195735Z-run",
	  "The verdict of a run again: report.md, report.html and the plots, from its records alone." },
	{ "eicbench report results/20261201T101500Z-sweep --format csv --no-plot",
	  "A sweep's table as CSV on stdout, without running gnuplot." },
	{ 0 }
};

const struct man_page cmd_report_page = {
	.name = "report",
	.summary = "tables, a recommendation and plots from a result folder",
	.forms = report_forms,
	.description =
	"Renders a result folder (a sweep's, a run's or a confsweep's) again from its records alone: the table, summary.csv, report.md, a self-contained report.html (styles and plots inline, so it opens from a mail attachment), the plots, and the explanation. A run's folder gives the verdict: one value for the storage, each query's observed speedup beside the one the replay predicts, the device's curve and the check for caches below the machine.\n\n"
	"A value's interval is the distribution-free interval of its median; a speedup is a ratio of medians with a bootstrap interval; the recommendation is the smallest value whose regret against the fastest, paired within rounds, is within the margin (see docs/decision.md). What could not be read (an interrupted run, a torn last record) is named and the rest is reported.",
	.examples = report_examples,
	.exit_status = "report exits 0 when something was rendered and 2 when nothing could be (no sweep with a finished trial).",
	.files = "DIR/report.md, DIR/report.html\tthe report, written again\n"
		 "DIR/*.svg, DIR/*.png\tthe plots (gnuplot with the scripts of the data folder)",
	.see_also = "run sweep compare",
	.guide = "eicbench report DIR",
};
