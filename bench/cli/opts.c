/*
 * opts: table-driven option parsing. The table is the single description of
 * each option; parsing, range checks and --help all read it. Numbers are
 * taken in one written form only (no sign but a leading '-', no leading
 * zeros, no spaces, exponents or hex), so a list cannot name one value
 * twice in different spellings; strings holding control characters are
 * refused, as they would break the files and messages they reach.
 */
#include "bench/cli/opts.h"
#include "bench/cli/outdir.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHOWN_MAX 160	/* characters of a value shown in a message */

/* ---- numbers ---- */

/* Digits with no leading zero (but "0" itself); the count, or 0. */
static size_t plain_digits(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 1 && s[0] == '0' ? 0 : n;
}

int opts_parse_ll(const char *s, long long min, long long max, long long *out)
{
	const char *d = s && *s == '-' ? s + 1 : s;
	char *end;
	long long v;

	if (!d || !*d || plain_digits(d) != strlen(d) || !strcmp(s, "-0"))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int opts_ll_error(const char *what, const char *s, long long min, long long max,
		  char *err, size_t errlen)
{
	char shown[SHOWN_MAX + 8], *end;
	long long v;

	opts_escape(s, shown, sizeof(shown));
	errno = 0;
	v = s && *s ? strtoll(s, &end, 10) : 0;
	if (s && *s && !errno && !*end && v >= min && v <= max)
		snprintf(err, errlen, "%s: '%s' is not written plainly; give %lld", what, shown, v);
	else
		snprintf(err, errlen, "%s: '%s' is not allowed; give a whole number from %lld to %lld",
			 what, shown, min, max);
	return -EINVAL;
}

int opts_parse_decimal(const char *s, double *out, const char **rest)
{
	size_t n = s ? plain_digits(s) : 0;
	const char *p;
	char *end;

	if (n == 0)
		return -EINVAL;
	p = s + n;
	if (*p == '.') {
		size_t f = strspn(p + 1, "0123456789");

		if (f == 0)
			return -EINVAL;
		p += 1 + f;
	}
	errno = 0;
	*out = strtod(s, &end);
	if (errno || end != p || !isfinite(*out) || (!rest && *p))
		return -EINVAL;
	if (rest)
		*rest = p;
	return 0;
}

static int suffix_scale(const char *suf, const char *const *names,
			const double *scales, double *scale)
{
	for (int i = 0; names[i]; i++) {
		if (!strcasecmp(suf, names[i])) {
			*scale = scales[i];
			return 0;
		}
	}
	return -EINVAL;
}

int opts_parse_size(const char *s, uint64_t *out)
{
	static const char *const names[] = { "", "b", "k", "kb", "kib", "m",
		"mb", "mib", "g", "gb", "gib", "t", "tb", "tib", NULL };
	static const double scales[] = { 1, 1, 0x1p10, 0x1p10, 0x1p10, 0x1p20,
		0x1p20, 0x1p20, 0x1p30, 0x1p30, 0x1p30, 0x1p40, 0x1p40, 0x1p40 };
	double scale;
	char *end;
	unsigned long long v;

	if (!s || plain_digits(s) == 0)
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || suffix_scale(end, names, scales, &scale) < 0)
		return -EINVAL;
	if ((double)v * scale > (double)UINT64_MAX / 2)
		return -EINVAL;
	*out = (uint64_t)v * (uint64_t)scale;
	return 0;
}

int opts_parse_bool(const char *s)
{
	static const char *const yes[] = { "yes", "on", "true", "1", NULL }, *const no[] = { "no", "off", "false", "0", NULL };

	for (int i = 0; yes[i]; i++)
		if (!strcasecmp(s, yes[i]))
			return 1;
	for (int i = 0; no[i]; i++)
		if (!strcasecmp(s, no[i]))
			return 0;
	return -EINVAL;
}

int opts_parse_seconds(const char *s, double *out)
{
	static const char *const names[] = { "", "s", "ms", "us", "\xc2\xb5s", "ns", "m", "min", "h", NULL };
	static const double scales[] = { 1, 1, 1e-3, 1e-6, 1e-6, 1e-9, 60, 60, 3600 };
	const char *suf;
	double scale, v;

	if (opts_parse_decimal(s, &v, &suf) < 0 || suffix_scale(suf, names, scales, &scale) < 0 ||
	    !isfinite(v * scale))
		return -EINVAL;
	*out = v * scale;
	return 0;
}

void opts_format_seconds(long long s, char *out, size_t len)
{
	if (s >= 2 * 86400 && s % 86400 == 0)
		snprintf(out, len, "%lldh (%lld days)", s / 3600, s / 86400);
	else if (s >= 3600 && s % 3600 == 0)
		snprintf(out, len, "%lldh", s / 3600);
	else if (s >= 60 && s % 60 == 0)
		snprintf(out, len, "%lldm", s / 60);
	else
		snprintf(out, len, "%llds", s);
}

/* ---- text ---- */

bool opts_has_control(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

void opts_escape(const char *s, char *out, size_t len)
{
	size_t used = 0;

	if (!len)
		return;
	out[0] = '\0';
	for (; s && *s && used + 5 < len && used < SHOWN_MAX; s++) {
		unsigned char c = (unsigned char)*s;
		const char *esc = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;

		if (esc)
			used += (size_t)snprintf(out + used, len - used, "%s", esc);
		else if (c < 0x20 || c == 0x7f)
			used += (size_t)snprintf(out + used, len - used, "\\x%02x", c);
		else
			out[used++] = (char)c, out[used] = '\0';
	}
	if (s && *s && used + 4 <= len)
		snprintf(out + used, len - used, "...");
}

int opts_check_text(const char *what, const char *s, char *err, size_t errlen)
{
	char shown[SHOWN_MAX + 8];

	if (!opts_has_control(s))
		return 0;
	opts_escape(s, shown, sizeof(shown));
	snprintf(err, errlen, "%s: '%s' holds a control character; give printable characters only (no newline, tab or other control character)",
		 what, shown);
	return -EINVAL;
}

/* Are A and B one file or folder: the same name, or the same inode? */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int opts_check_paths(const char *what, char *const *paths, int n, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++)
		if (opts_check_text(what, paths[i], err, errlen) < 0)
			return -EINVAL;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			if (!same_file(paths[i], paths[j]))
				continue;
			if (!strcmp(paths[i], paths[j]))
				snprintf(err, errlen, "%s: '%.*s' is given twice; give each once",
					 what, SHOWN_MAX, paths[i]);
			else
				snprintf(err, errlen, "%s: '%.*s' and '%.*s' are the same; give each once",
					 what, SHOWN_MAX, paths[i], SHOWN_MAX, paths[j]);
			return -EINVAL;
		}
	return 0;
}

/* ---- lists ---- */

int opts_parse_ll_list(const char *flag, const char *s, long long min,
		       long long max, long long *out, int maxn,
		       char *err, size_t errlen)
{
	char item[64], what[80];
	const char *p = s;
	int n = 0;

	snprintf(what, sizeof(what), "--%s", flag);
	if (!s || !*s) {
		snprintf(err, errlen, "--%s: the list is empty; give comma-separated whole numbers from %lld to %lld",
			 flag, min, max);
		return -EINVAL;
	}
	if (opts_check_text(what, s, err, errlen) < 0)
		return -EINVAL;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (len >= sizeof(item) || n == maxn) {
			snprintf(err, errlen, "--%s: '%.*s' is too long; at most %d items", flag, SHOWN_MAX, s, maxn);
			return -EINVAL;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (opts_parse_ll(item, min, max, &out[n]) < 0)
			return opts_ll_error(what, item, min, max, err, errlen);
		for (int k = 0; k < n; k++)
			if (out[k] == out[n]) {
				snprintf(err, errlen, "--%s: %lld is given twice; give each value once", flag, out[n]);
				return -EINVAL;
			}
		n++;
		if (!p[len])
			return n;
		p += len + 1;
	}
}

/* ---- the table ---- */

static bool named(const char *n, const char *name, size_t len)
{
	return n && strlen(n) == len && !strncmp(n, name, len);
}

static const struct opt_desc *find(const struct opt_desc *t, const char *name,
				   size_t len)
{
	for (; t->name; t++)
		if (named(t->name, name, len) || named(t->alias, name, len))
			return t;
	return NULL;
}

static const struct opt_desc *find_short(const struct opt_desc *t, char c)
{
	for (; t->name; t++)
		if (t->short_name && t->short_name == c)
			return t;
	return NULL;
}

static long long seconds_max(const struct opt_desc *d)
{
	return d->max > 0 ? d->max : OPTS_SECONDS_MAX;
}

static int range_error(const struct opt_desc *d, const char *v, char *err,
		       size_t errlen)
{
	char shown[SHOWN_MAX + 8], what[80], bound[48];

	opts_escape(v, shown, sizeof(shown));
	snprintf(what, sizeof(what), "--%s", d->name);
	switch (d->type) {
	case OPT_INT:
		return opts_ll_error(what, v, d->min, d->max, err, errlen);
	case OPT_SIZE:
		snprintf(err, errlen, "%s: '%s' is not allowed; give a size from %lld to %lld bytes (suffixes k, m, g)",
			 what, shown, d->min, d->max);
		break;
	default:
		opts_format_seconds(seconds_max(d), bound, sizeof(bound));
		snprintf(err, errlen, "%s: '%s' is not allowed; give a duration from 1ms to %s (a decimal number, suffixes ms, s, m, h)",
			 what, shown, bound);
	}
	return -EINVAL;
}

static int store_text(const struct opt_desc *d, const char *v, char *err, size_t errlen)
{
	char what[80];

	/* a positional argument by what it is ("result folder"), else the flag */
	snprintf(what, sizeof(what), "%s%s", d->type == OPT_ARG || d->type == OPT_ARGS ? "" : "--", d->name);
	return opts_check_text(what, v, err, errlen);
}

static int store(const struct opt_desc *d, void *cfg, const char *v,
		 char *err, size_t errlen)
{
	char *field = (char *)cfg + d->offset;
	struct opt_list *l;
	uint64_t sz;
	double sec;

	switch (d->type) {
	case OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case OPT_STR:
		if (store_text(d, v, err, errlen) < 0)
			return -EINVAL;
		*(const char **)field = v;
		return 0;
	case OPT_OUT: {
		char what[80];

		snprintf(what, sizeof(what), "--%s", d->name);
		if (store_text(d, v, err, errlen) < 0 || outdir_check(what, v, err, errlen) < 0)
			return -EINVAL;
		*(const char **)field = v;
		return 0;
	}
	case OPT_LIST:
		l = (struct opt_list *)field;
		if (l->n == OPT_LIST_MAX) {
			snprintf(err, errlen, "--%s: given more than %d times", d->name, OPT_LIST_MAX);
			return -EINVAL;
		}
		if (store_text(d, v, err, errlen) < 0)
			return -EINVAL;
		l->v[l->n++] = v;
		return 0;
	case OPT_INT:
		if (opts_parse_ll(v, d->min, d->max, (long long *)field) < 0)
			return range_error(d, v, err, errlen);
		return 0;
	case OPT_SIZE:
		if (opts_parse_size(v, &sz) < 0 || sz < (uint64_t)d->min ||
		    sz > (uint64_t)d->max)
			return range_error(d, v, err, errlen);
		*(uint64_t *)field = sz;
		return 0;
	case OPT_SECONDS:
		if (opts_parse_seconds(v, &sec) < 0 || sec < OPTS_SECONDS_MIN ||
		    sec > (double)seconds_max(d))
			return range_error(d, v, err, errlen);
		*(double *)field = sec;
		return 0;
	case OPT_CALL:
		if (store_text(d, v, err, errlen) < 0)
			return -EINVAL;
		/* fall through */
	case OPT_CALL_FLAG:
		return d->take(cfg, v, err, errlen) < 0 ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}

static bool takes_value(const struct opt_desc *d)
{
	return d->type != OPT_FLAG && d->type != OPT_CALL_FLAG;
}
/* Store D's value: V when attached ("=v", "-xv"), else the next argument. */
static int store_value(const struct opt_desc *d, void *cfg, const char *v,
		       int argc, char **argv, int *i, char *err, size_t errlen)
{
	if (!v && *i + 1 < argc)
		v = argv[++*i];
	if (!v) {
		snprintf(err, errlen, "--%s needs a value (%s)", d->name,
			 d->metavar ? d->metavar : "see --help");
		return -EINVAL;
	}
	return store(d, cfg, v, err, errlen);
}

static void mark(const struct opt_desc *table, const struct opt_desc *d, bool *given)
{
	if (given && d)
		given[d - table] = true;
}

static int parse_long(const struct opt_desc *table, void *cfg, int argc,
		      char **argv, int *i, bool *given, char *err, size_t errlen)
{
	const char *a = argv[*i] + 2, *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	const struct opt_desc *d = find(table, a, len);

	if (d && d->type == OPT_ARG)
		d = NULL;
	mark(table, d, given);
	if (!d) {
		char name[SHOWN_MAX + 8];

		opts_escape(a, name, sizeof(name));
		snprintf(err, errlen, "unknown option '--%.*s'; see --help",
			 (int)strcspn(name, "="), name);
		return -EINVAL;
	}
	if (takes_value(d))
		return store_value(d, cfg, eq ? eq + 1 : NULL, argc, argv, i, err, errlen);
	if (eq) {
		snprintf(err, errlen, "--%s takes no value", d->name);
		return -EINVAL;
	}
	return store(d, cfg, NULL, err, errlen);
}

/* "-x", "-x value", "-xvalue", or bundled flags "-xyz". */
static int parse_short(const struct opt_desc *table, void *cfg, int argc,
		       char **argv, int *i, bool *given, char *err, size_t errlen)
{
	for (const char *a = argv[*i] + 1; *a; a++) {
		const struct opt_desc *d = find_short(table, *a);

		mark(table, d, given);
		if (!d) {
			char c[2] = { *a, 0 }, shown[8];

			opts_escape(c, shown, sizeof(shown));
			snprintf(err, errlen, "unknown option '-%s'; see --help", shown);
			return -EINVAL;
		}
		if (takes_value(d))
			return store_value(d, cfg, a[1] ? a + 1 : NULL, argc, argv, i,
					   err, errlen);
		if (store(d, cfg, NULL, err, errlen) < 0)
			return -EINVAL;
	}
	return 0;
}

/* A positional argument into the table's next free OPT_ARG, else its OPT_ARGS. */
static int positional(const struct opt_desc *table, void *cfg, const char *a, bool *given,
		      char *err, size_t errlen)
{
	const struct opt_desc *rest = NULL, *named = NULL;
	char shown[SHOWN_MAX + 8];

	for (const struct opt_desc *d = table; d->name; d++) {
		const char **field = (const char **)((char *)cfg + d->offset);

		if (d->type == OPT_ARGS)
			rest = d;
		if (d->type != OPT_ARG)
			continue;
		named = d;
		if (*field)
			continue;
		if (store_text(d, a, err, errlen) < 0)
			return -EINVAL;
		*field = a;
		mark(table, d, given);
		return 0;
	}
	if (rest) {
		struct opt_args *l = (struct opt_args *)((char *)cfg + rest->offset);

		if (l->n == OPT_ARGS_MAX) {
			snprintf(err, errlen, "too many command-line arguments: at most %d %s",
				 OPT_ARGS_MAX, rest->metavar ? rest->metavar : rest->name);
			return -EINVAL;
		}
		if (store_text(rest, a, err, errlen) < 0)
			return -EINVAL;
		l->v[l->n++] = a;
		mark(table, rest, given);
		return 0;
	}
	opts_escape(a, shown, sizeof(shown));
	if (named)
		snprintf(err, errlen, "too many command-line arguments (first is '%s'); give one %s",
			 shown, named->metavar ? named->metavar : named->name);
	else
		snprintf(err, errlen, "unexpected argument '%s'; options start with --", shown);
	return -EINVAL;
}

static bool asks_help(const struct opt_desc *table, const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-?") || (!strcmp(a, "-h") && !find_short(table, 'h'));
}

int opts_parse_given(const struct opt_desc *table, void *cfg, int argc, char **argv,
		     bool *given, char *err, size_t errlen)
{
	bool options = true;	/* until "--" */

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int ret;

		if (options && !strcmp(a, "--")) {
			options = false;
			continue;
		}
		if (options && asks_help(table, a))
			return 1;
		if (!options)
			ret = positional(table, cfg, a, given, err, errlen);
		else if (!strncmp(a, "--", 2) && a[2])
			ret = parse_long(table, cfg, argc, argv, &i, given, err, errlen);
		else if (a[0] == '-' && a[1] && a[1] != '-')
			ret = parse_short(table, cfg, argc, argv, &i, given, err, errlen);
		else
			ret = positional(table, cfg, a, given, err, errlen);
		if (ret < 0)
			return -EINVAL;
	}
	return 0;
}

int opts_parse(const struct opt_desc *table, void *cfg, int argc, char **argv,
	       char *err, size_t errlen)
{
	return opts_parse_given(table, cfg, argc, argv, NULL, err, errlen);
}

/* ---- help ---- */

int opts_width(FILE *out)
{
	struct winsize ws;
	int fd = out ? fileno(out) : -1;

	if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

void opts_wrap(FILE *out, const char *s, int col, int indent, int width)
{
	bool first = true;	/* no word on this line yet */

	while (s && *s) {
		size_t n;

		if (*s == '\n') {
			fprintf(out, "\n%*s", indent, "");
			col = indent, first = true, s++;
			continue;
		}
		if (*s == ' ') {
			s++;
			continue;
		}
		n = strcspn(s, " \n");
		if (!first && col + 1 + (int)n > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent, first = true;
		}
		if (!first)
			fputc(' ', out), col++;
		fwrite(s, 1, n, out);
		col += (int)n, first = false, s += n;
	}
}

/* Where the continuation of a usage line goes. A line at column 7, under
 * "usage: ", is another form; a line further in continues a form, at the
 * column its author aligned it to. So: under the next line when it
 * continues this one, else under this line when it is a continuation,
 * else under the first "[" or "-" after the command's words, or 8 columns
 * in. */
static int usage_indent(const char *line, size_t len, const char *next, int width)
{
	size_t own = strspn(line, " "), after = next ? strspn(next, " ") : 0;

	if (after > 7 && after > own && (int)after < width / 2)
		return (int)after;
	if (own > 7 && (int)own < width / 2)
		return (int)own;
	for (size_t i = 1, words = 0; i < len && (int)i < width / 2; i++) {
		if (line[i - 1] != ' ' || line[i] == ' ')
			continue;
		if (line[i] == '[' || line[i] == '-' || ++words == 3)
			return (int)i;	/* an option, or the word after "usage: eicbench CMD" */
	}
	return 8;
}

/* One line of the usage, LEN bytes, broken at spaces to WIDTH columns
 * (before a "[" where one fits), continued at INDENT. */
static void usage_line(FILE *out, const char *line, size_t len, int indent, int width)
{
	int col = 0;

	while ((int)len + col > width) {
		size_t cut = 0, any = 0;

		for (size_t i = (size_t)(indent > col ? indent - col : 1); i < len && (int)i + col <= width; i++)
			if (line[i] == ' ') {
				any = i;
				if (i + 1 < len && line[i + 1] == '[')
					cut = i;
			}
		cut = cut ? cut : any;
		if (!cut)
			break;
		fwrite(line, 1, cut, out);
		fprintf(out, "\n%*s", indent, "");
		col = indent;
		line += cut + 1, len -= cut + 1;
	}
	fwrite(line, 1, len, out);
	fputc('\n', out);
}

void opts_usage_width(FILE *out, const char *usage, const struct opt_desc *t, int width)
{
	char *text = NULL;
	size_t textlen = 0;
	FILE *u = open_memstream(&text, &textlen);

	if (width < 60)
		width = 60;
	if (u) {	/* the whole usage, then each of its lines wrapped */
		fprintf(u, "usage: %s", usage);
		fclose(u);
		for (const char *l = text; l && *l;) {
			size_t n = strcspn(l, "\n");
			const char *next = l[n] ? l + n + 1 : NULL;

			usage_line(out, l, n, usage_indent(l, n, next, width), width);
			l += n + (l[n] == '\n');
		}
		free(text);
	}
	fputs("\noptions:\n", out);
	for (; t->name; t++) {
		char left[64], alias[8] = "", help[2048];

		if (t->short_name)
			snprintf(alias, sizeof(alias), "-%c, ", t->short_name);
		if (t->type == OPT_ARG || t->type == OPT_ARGS)
			snprintf(left, sizeof(left), "%s", t->metavar ? t->metavar : t->name);
		else
			snprintf(left, sizeof(left), "%s--%s%s%s", alias, t->name,
				 t->metavar ? " " : "", t->metavar ? t->metavar : "");
		snprintf(help, sizeof(help), "%s%s%s%s%s%s%s", t->help, t->def ? " (default " : "",
			 t->def ? t->def : "", t->def ? ")" : "", t->alias ? " (also --" : "",
			 t->alias ? t->alias : "", t->alias ? ")" : "");
		fprintf(out, "  %-26s ", left);
		opts_wrap(out, help, 3 + (int)(strlen(left) > 26 ? strlen(left) : 26), 29, width);
		fputc('\n', out);
	}
}

void opts_usage(FILE *out, const char *usage, const struct opt_desc *t)
{
	opts_usage_width(out, usage, t, opts_width(out));
}
