/*
 * opts: table-driven option parsing. The table is the single description of
 * each option; parsing, range checks and --help all read it.
 */
#include "bench/opts.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int opts_parse_ll(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max)
		return -EINVAL;
	*out = v;
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

	if (!s || *s < '0' || *s > '9')
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
	static const char *const names[] = { "", "s", "ms", "m", "min", "h", NULL };
	static const double scales[] = { 1, 1, 1e-3, 60, 60, 3600 };
	double scale, v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || !isfinite(v) || suffix_scale(end, names, scales, &scale) < 0)
		return -EINVAL;
	*out = v * scale;
	return 0;
}

int opts_parse_ll_list(const char *flag, const char *s, long long min,
		       long long max, long long *out, int maxn,
		       char *err, size_t errlen)
{
	char item[64];
	const char *p = s;
	int n = 0;

	if (!s || !*s) {
		snprintf(err, errlen, "--%s: the list is empty; give comma-separated whole numbers from %lld to %lld",
			 flag, min, max);
		return -EINVAL;
	}
	for (;;) {
		size_t len = strcspn(p, ",");

		if (len >= sizeof(item) || n == maxn) {
			snprintf(err, errlen, "--%s: '%s' is too long; at most %d items", flag, s, maxn);
			return -EINVAL;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (opts_parse_ll(item, min, max, &out[n]) < 0) {
			snprintf(err, errlen, "--%s: '%s' is not allowed; give comma-separated whole numbers from %lld to %lld",
				 flag, item, min, max);
			return -EINVAL;
		}
		n++;
		if (!p[len])
			return n;
		p += len + 1;
	}
}

static const struct opt_desc *find(const struct opt_desc *t, const char *name,
				   size_t len)
{
	for (; t->name; t++)
		if (strlen(t->name) == len && !strncmp(t->name, name, len))
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

static int range_error(const struct opt_desc *d, const char *v, char *err,
		       size_t errlen)
{
	switch (d->type) {
	case OPT_INT:
		snprintf(err, errlen, "--%s: '%s' is not allowed; give a whole number from %lld to %lld",
			 d->name, v, d->min, d->max);
		break;
	case OPT_SIZE:
		snprintf(err, errlen, "--%s: '%s' is not allowed; give a size from %lld to %lld bytes (suffixes k, m, g)",
			 d->name, v, d->min, d->max);
		break;
	default:
		snprintf(err, errlen, "--%s: '%s' is not allowed; give a duration in seconds (suffixes ms, s, m, h), more than 0",
			 d->name, v);
	}
	return -EINVAL;
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
		*(const char **)field = v;
		return 0;
	case OPT_LIST:
		l = (struct opt_list *)field;
		if (l->n == OPT_LIST_MAX) {
			snprintf(err, errlen, "--%s: given more than %d times", d->name, OPT_LIST_MAX);
			return -EINVAL;
		}
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
		if (opts_parse_seconds(v, &sec) < 0 || sec <= 0)
			return range_error(d, v, err, errlen);
		*(double *)field = sec;
		return 0;
	default:
		return -EINVAL;
	}
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

static int parse_long(const struct opt_desc *table, void *cfg, int argc,
		      char **argv, int *i, char *err, size_t errlen)
{
	const char *a = argv[*i] + 2, *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	const struct opt_desc *d = find(table, a, len);

	if (!d) {
		snprintf(err, errlen, "unknown option '--%.*s'; see --help", (int)len, a);
		return -EINVAL;
	}
	if (d->type != OPT_FLAG)
		return store_value(d, cfg, eq ? eq + 1 : NULL, argc, argv, i, err, errlen);
	if (eq) {
		snprintf(err, errlen, "--%s takes no value", d->name);
		return -EINVAL;
	}
	return store(d, cfg, NULL, err, errlen);
}

/* "-x", "-x value", "-xvalue", or bundled flags "-xyz". */
static int parse_short(const struct opt_desc *table, void *cfg, int argc,
		       char **argv, int *i, char *err, size_t errlen)
{
	for (const char *a = argv[*i] + 1; *a; a++) {
		const struct opt_desc *d = find_short(table, *a);

		if (!d) {
			snprintf(err, errlen, "unknown option '-%c'; see --help", *a);
			return -EINVAL;
		}
		if (d->type != OPT_FLAG)
			return store_value(d, cfg, a[1] ? a + 1 : NULL, argc, argv, i,
					   err, errlen);
		store(d, cfg, NULL, err, errlen);
	}
	return 0;
}

int opts_parse(const struct opt_desc *table, void *cfg, int argc, char **argv,
	       char *err, size_t errlen)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int ret;

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		if (!strncmp(a, "--", 2) && a[2])
			ret = parse_long(table, cfg, argc, argv, &i, err, errlen);
		else if (a[0] == '-' && a[1] && a[1] != '-')
			ret = parse_short(table, cfg, argc, argv, &i, err, errlen);
		else {
			snprintf(err, errlen, "unexpected argument '%s'; options start with --", a);
			return -EINVAL;
		}
		if (ret < 0)
			return -EINVAL;
	}
	return 0;
}

void opts_usage(FILE *out, const char *usage, const struct opt_desc *t)
{
	fprintf(out, "usage: %s\n\noptions:\n", usage);
	for (; t->name; t++) {
		char left[64], alias[8] = "";

		if (t->short_name)
			snprintf(alias, sizeof(alias), "-%c, ", t->short_name);
		snprintf(left, sizeof(left), "%s--%s%s%s", alias, t->name,
			 t->metavar ? " " : "", t->metavar ? t->metavar : "");
		fprintf(out, "  %-26s %s", left, t->help);
		if (t->def)
			fprintf(out, " (default %s)", t->def);
		fputc('\n', out);
	}
}
