/*
 * opts: command-line options described once (name, type, range, default,
 * help) so that parsing, validation and --help agree. Each command keeps its
 * settings in its own struct and lists its options in a table of struct
 * opt_desc pointing into that struct by offset. Errors name the flag, the
 * value and what is allowed; they are returned, never printed here.
 */
#ifndef BENCH_OPTS_H
#define BENCH_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_type {
	OPT_END = 0,
	OPT_FLAG,      /* bool, no value */
	OPT_INT,       /* long long within [min, max] */
	OPT_SIZE,      /* uint64_t bytes; suffixes k, m, g, t (powers of 1024) */
	OPT_SECONDS,   /* double seconds; suffixes ms, s, m, h */
	OPT_STR,       /* const char *, pointing into argv */
	OPT_LIST,      /* struct opt_list: repeatable string option */
};

#define OPT_LIST_MAX 16

struct opt_list {
	const char *v[OPT_LIST_MAX];
	int n;
};

struct opt_desc {
	const char   *name;     /* long name without the leading "--" */
	enum opt_type type;
	size_t        offset;   /* of the field in the command's settings struct */
	long long     min, max; /* OPT_INT and OPT_SIZE ranges */
	const char   *metavar;
	const char   *def;      /* default, as shown in --help */
	const char   *help;
	char          short_name; /* optional one-letter alias ("-c 4", "-c4"); 0: none */
};

#define OPT_ERR_MAX 512

/*
 * Parse argv[0..argc) (the command's own arguments) into CFG. Accepts
 * "--name value" and "--name=value", and for options with a short_name
 * "-x value" and "-xvalue"; short flags may be bundled ("-nS"). Positional
 * arguments are an error. Returns 0, 1 when --help was asked for, or
 * -EINVAL with ERR filled.
 */
int opts_parse(const struct opt_desc *table, void *cfg, int argc, char **argv,
	       char *err, size_t errlen);

void opts_usage(FILE *out, const char *usage, const struct opt_desc *table);

/* Strict number parsing, shared with list parsers. 0 or -EINVAL. */
int opts_parse_ll(const char *s, long long min, long long max, long long *out);
int opts_parse_size(const char *s, uint64_t *out);
int opts_parse_seconds(const char *s, double *out);
/* yes/no, on/off, true/false, 1/0 (any case): 1 or 0, else -EINVAL. */
int opts_parse_bool(const char *s);

/*
 * Parse a comma-separated list of whole numbers in [min, max] into OUT (at
 * most MAXN). Returns the count, or -EINVAL with ERR naming FLAG and the bad
 * item (an empty list or an empty item is an error too).
 */
int opts_parse_ll_list(const char *flag, const char *s, long long min,
		       long long max, long long *out, int maxn,
		       char *err, size_t errlen);

#endif
