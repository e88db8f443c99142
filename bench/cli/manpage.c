/*
 * manpage: roff for the man macros, from option tables and plain prose; see
 * manpage.h. Every '-' is written as \- so that options and commands copied
 * from the rendered page are what the shell needs; a backslash becomes \e
 * and a line that would start with a control character is guarded by \&.
 */
#include "bench/cli/manpage.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

/* S, LEN bytes of it, escaped for roff text. */
static void text_n(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if ((i == 0 || s[i - 1] == '\n') && (c == '.' || c == '\''))
			fputs("\\&", out);
		if (c == '\\')
			fputs("\\e", out);
		else if (c == '-')
			fputs("\\-", out);
		else
			fputc(c, out);
	}
}

static void text(FILE *out, const char *s)
{
	text_n(out, s, strlen(s));
}

/* Does the paragraph P (LEN bytes) have every line indented two spaces? */
static int literal(const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((i == 0 || p[i - 1] == '\n') && strncmp(p + i, "  ", 2) != 0)
			return 0;
	return len > 0;
}

/* One paragraph: filled text, or shown as written without its indent. */
static void paragraph(FILE *out, const char *p, size_t len)
{
	if (!literal(p, len)) {
		fputs(".PP\n", out);
		text_n(out, p, len);
		fputc('\n', out);
		return;
	}
	fputs(".PP\n.RS\n.nf\n", out);
	for (size_t i = 0; i < len;) {
		size_t n = strcspn(p + i, "\n");

		if (n > len - i)
			n = len - i;
		text_n(out, p + i + 2, n - 2);
		fputc('\n', out);
		i += n + 1;
	}
	fputs(".fi\n.RE\n", out);
}

/* Prose: paragraphs separated by blank lines. */
static void prose(FILE *out, const char *s)
{
	while (s && *s) {
		const char *end = strstr(s, "\n\n");
		size_t len = end ? (size_t)(end - s) : strlen(s);

		while (len > 0 && s[len - 1] == '\n')
			len--;
		if (len > 0)
			paragraph(out, s, len);
		s = end ? end + 2 : s + strlen(s);
		while (*s == '\n')
			s++;
	}
}

static void heading(FILE *out, const char *name)
{
	fprintf(out, ".SH %s\n", name);
}

/* "eicbench-sweep" in upper case for .TH. */
static void title(FILE *out, const char *name, const struct man_meta *m)
{
	fputs(".TH \"", out);
	for (const char *c = name; *c; c++)
		fputs(*c == '-' ? "\\-" : (char[2]){ (char)toupper((unsigned char)*c), 0 }, out);
	fprintf(out, "\" 1 \"%s\" \"eicbench %s\" \"eicbench manual\"\n", m->date, m->version);
	fputs(".nh\n.ad l\n", out);	/* no hyphens inside option names, no stretched lines */
}

static void synopsis(FILE *out, const struct man_form *forms)
{
	heading(out, "SYNOPSIS");
	fputs(".nf\n", out);
	for (const struct man_form *f = forms; f && f->usage; f++) {
		text(out, f->usage);
		fputc('\n', out);
	}
	fputs(".fi\n", out);
}

/* One option as --help shows it: its names and value, then its help (a
 * positional argument by its name alone). */
static void option(FILE *out, const struct opt_desc *d)
{
	fputs(".TP\n", out);
	if (d->type == OPT_ARG || d->type == OPT_ARGS) {
		fputs("\\fI", out);
		text(out, d->metavar ? d->metavar : d->name);
		fputs("\\fR\n", out);
		text(out, d->help);
		fputc('\n', out);
		return;
	}
	if (d->short_name)
		fprintf(out, "\\fB\\-%c\\fR, ", d->short_name);
	fputs("\\fB\\-\\-", out);
	text(out, d->name);
	fputs("\\fR", out);
	if (d->metavar) {
		fputs(" \\fI", out);
		text(out, d->metavar);
		fputs("\\fR", out);
	}
	fputc('\n', out);
	text(out, d->help);
	if (d->def) {
		fputs(" (default ", out);
		text(out, d->def);
		fputc(')', out);
	}
	if (d->alias) {
		fputs(" (also \\-\\-", out);
		text(out, d->alias);
		fputc(')', out);
	}
	fputc('\n', out);
}

static void options(FILE *out, const char *cmd, const struct man_form *forms)
{
	int named = forms[0].usage && forms[0].name && forms[1].usage;

	bool h_taken = false;	/* -h is an option of the command's (a host) */

	heading(out, "OPTIONS");
	for (const struct man_form *f = forms; f->usage; f++) {
		if (named) {
			fprintf(out, ".SS \"eicbench %s ", cmd);
			text(out, f->name);
			fputs("\"\n", out);
		}
		for (const struct opt_desc *d = f->table; d && d->name; d++) {
			option(out, d);
			h_taken = h_taken || d->short_name == 'h';
		}
	}
	if (h_taken)
		fputs(".TP\n\\fB\\-\\-help\\fR, \\fB\\-?\\fR\nprint the usage and these options, and exit\n", out);
	else
		fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nprint the usage and these options, and exit\n", out);
}

/* "NAME\twhat" lines as a list of tagged paragraphs. */
static void tagged(FILE *out, const char *lines)
{
	for (const char *l = lines; l && *l;) {
		size_t n = strcspn(l, "\n"), tab = strcspn(l, "\t");

		if (tab < n) {
			fputs(".TP\n\\fB", out);
			text_n(out, l, tab);
			fputs("\\fR\n", out);
			text_n(out, l + tab + 1, n - tab - 1);
			fputc('\n', out);
		}
		l += n + (l[n] == '\n');
	}
}

static void exit_status(FILE *out, const char *extra)
{
	heading(out, "EXIT STATUS");
	tagged(out, "0\tsuccess\n"
		    "1\ta run failed (the message says which step and why; what was finished is kept)\n"
		    "2\tbad usage or bad input: the message names the value and what is allowed, and nothing was written\n"
		    "3\tbusy: another eicbench command holds the cluster or the result folder (the message names it); nothing was done\n"
		    "128 + N\tstopped by signal N at its next safe point, what was finished kept and the server's settings put back: 130 Ctrl-C (SIGINT), 129 a hang-up (SIGHUP), 141 a closed pipe (SIGPIPE), 143 SIGTERM");
	prose(out, extra);
}

static void environment(FILE *out, const char *extra)
{
	heading(out, "ENVIRONMENT");
	tagged(out, extra);
	tagged(out, "EICBENCH_CACHE\tthe build cache where scripts/build-pg.sh installs PostgreSQL builds and --pg MAJOR looks (else /var/cache/eicbench as root, else ${XDG_CACHE_HOME:-~/.cache}/eicbench)\n"
		    "EICBENCH_STATE\tthe state folder: locks and settings journals of --dsn servers (else /var/lib/eicbench as root, else ${XDG_STATE_HOME:-~/.local/state}/eicbench)\n"
		    "EICBENCH_SCRIPTS\tthe folder of the gnuplot scripts the plots use, for the tests: taken only by an eicbench run from its build tree, refused by an installed one (which uses its data folder's scripts/, see FILES)\n"
		    "PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSFILE\tlibpq completes a --dsn connection string from these, as every libpq program does\n"
		    "SUDO_UID, SUDO_GID\trun through sudo, result folders are given to that user");
}

static void files(FILE *out, const char *extra, const struct man_meta *m)
{
	char common[2048];

	heading(out, "FILES");
	tagged(out, extra);
	snprintf(common, sizeof(common),
		 "data/pg\tthe managed cluster's data directory unless --datadir says otherwise (under the working directory: run from the device under test)\n"
		 "results/<UTC>-<command>/\teach run's result folder: meta.json, the records (trials.jsonl or points.jsonl), summary.csv, the reports and plots; never overwritten\n"
		 "%s\tthe data files: scripts/*.gp (the plots) and sweeps/*.ini (the shipped sweep files); beside the program in a checkout\n"
		 "%s\tthe guide (docs/commands.md), how the figures are judged (docs/judging.md), measured figures",
		 m->sharedir, m->docdir);
	tagged(out, common);
}

static void examples(FILE *out, const struct man_example *ex)
{
	if (!ex || !ex->cmd)
		return;
	heading(out, "EXAMPLES");
	for (; ex->cmd; ex++) {
		fputs(".PP\n", out);
		text(out, ex->what);
		fputs("\n.PP\n.RS\n.nf\n", out);
		text(out, ex->cmd);
		fputs("\n.fi\n.RE\n", out);
	}
}

/* "report run" as eicbench-report(1), eicbench-run(1), after eicbench(1). */
static void see_also(FILE *out, const char *names, const char *guide, const struct man_meta *m)
{
	heading(out, "SEE ALSO");
	fputs("\\fBeicbench\\fR(1)", out);
	for (const char *s = names; s && *s;) {
		size_t n = strcspn(s, " ");

		if (n) {
			fputs(", \\fBeicbench\\-", out);
			text_n(out, s, n);
			fputs("\\fR(1)", out);
		}
		s += n + (s[n] == ' ');
	}
	fputs(", \\fBpostgres\\fR(1)\n.PP\n", out);
	text(out, "The guide, with examples: ");
	text(out, m->docdir);
	text(out, "/docs/commands.md");
	if (guide) {
		text(out, " (");
		text(out, guide);
		text(out, ")");
	}
	fputs(".\n", out);
}

int manpage_write(FILE *out, const struct man_page *p, const struct man_meta *m)
{
	char name[96];

	snprintf(name, sizeof(name), "eicbench-%s", p->name);
	title(out, name, m);
	heading(out, "NAME");
	text(out, name);
	fputs(" \\- ", out);
	text(out, p->summary);
	fputc('\n', out);
	synopsis(out, p->forms);
	heading(out, "DESCRIPTION");
	prose(out, p->description);
	options(out, p->name, p->forms);
	exit_status(out, p->exit_status);
	environment(out, p->environment);
	files(out, p->files, m);
	examples(out, p->examples);
	see_also(out, p->see_also, p->guide, m);
	return ferror(out) ? -EIO : 0;
}

static void commands(FILE *out, const struct man_page *const *pages, int n)
{
	heading(out, "COMMANDS");
	for (int i = 0; i < n; i++) {
		fputs(".TP\n\\fBeicbench ", out);
		text(out, pages[i]->name);
		fputs("\\fR\n", out);
		text(out, pages[i]->summary);
		fputs("; see \\fBeicbench\\-", out);
		text(out, pages[i]->name);
		fputs("\\fR(1)\n", out);
	}
}

int manpage_write_main(FILE *out, const struct man_page *mp,
		       const struct man_page *const *pages, int npages,
		       const struct man_meta *m)
{
	title(out, "eicbench", m);
	heading(out, "NAME");
	fputs("eicbench \\- ", out);
	text(out, mp->summary);
	fputc('\n', out);
	synopsis(out, mp->forms);
	heading(out, "DESCRIPTION");
	prose(out, mp->description);
	commands(out, pages, npages);
	options(out, "", mp->forms);
	exit_status(out, mp->exit_status);
	environment(out, mp->environment);
	files(out, mp->files, m);
	examples(out, mp->examples);
	heading(out, "SEE ALSO");
	for (int i = 0; i < npages; i++) {
		fputs(i ? ", \\fBeicbench\\-" : "\\fBeicbench\\-", out);
		text(out, pages[i]->name);
		fputs("\\fR(1)", out);
	}
	fputs(", \\fBpostgres\\fR(1), \\fBpgbench\\fR(1), \\fBfio\\fR(1)\n.PP\n", out);
	text(out, "The README and the documents: ");
	text(out, m->docdir);
	fputs(".\n", out);
	return ferror(out) ? -EIO : 0;
}
