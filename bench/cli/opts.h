/*
 * opts: command-line options described once (name, type, range, default,
 * help) so that parsing, validation and --help agree. Each command keeps its
 * settings in its own struct and lists its options in a table of struct
 * opt_desc pointing into that struct by offset. Errors name the flag, the
 * value (control characters shown escaped, as \n) and what is allowed;
 * they are returned, never printed here. Numbers are taken written one way
 * only; strings (OPT_STR, OPT_LIST) holding a control character are refused.
 * "--help" and "-?" ask for help, and "-h" too unless the table gives -h a
 * meaning of its own (a host, as pgbench's). A table may take positional
 * arguments (OPT_ARG, OPT_ARGS) and options whose every occurrence a
 * function of the command takes, in order (OPT_CALL, OPT_CALL_FLAG:
 * pgbench's -f, -b, -S). Options and positional arguments come in any
 * order, as getopt_long takes them, and "--" ends the options. --help is
 * wrapped to the terminal's width (80 columns when not a terminal).
 */
#ifndef BENCH_CLI_OPTS_H
#define BENCH_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_type {
	OPT_END = 0,
	OPT_FLAG,      /* bool, no value */
	OPT_INT,       /* long long within [min, max] */
	OPT_SIZE,      /* uint64_t bytes; suffixes k, m, g, t (powers of 1024) */
	OPT_SECONDS,   /* double seconds; suffixes ms, s, m, h; from 1 ms to max
			* seconds (OPTS_SECONDS_MAX when max is 0) */
	OPT_STR,       /* const char *, pointing into argv */
	OPT_OUT,       /* const char *: a folder to write into (--out), checked
	                * at once by outdir_check() */
	OPT_LIST,      /* struct opt_list: repeatable string option */
	OPT_ARG,       /* const char *: a positional argument (one per entry, in order) */
	OPT_ARGS,      /* struct opt_args: every positional argument after the
			* OPT_ARG entries are filled, in order */
	OPT_CALL,      /* take(cfg, value) for every occurrence */
	OPT_CALL_FLAG, /* take(cfg, NULL) for every occurrence; no value */
};

#define OPT_LIST_MAX 16
#define OPTS_SECONDS_MIN 0.001            /* every OPT_SECONDS: 1 ms at least */
#define OPTS_SECONDS_MAX (7LL * 86400)    /* an OPT_SECONDS without a max of its own */

struct opt_list {
	const char *v[OPT_LIST_MAX];
	int n;
};

#define OPT_ARGS_MAX 256
struct opt_args {
	const char *v[OPT_ARGS_MAX];
	int n;
};

struct opt_desc {
	const char   *name;     /* long name without the leading "--"; of a
				 * positional argument, what it is ("result
				 * folder"), for messages */
	enum opt_type type;
	size_t        offset;   /* of the field in the command's settings struct */
	long long     min, max; /* OPT_INT and OPT_SIZE ranges; OPT_SECONDS' max */
	const char   *metavar;
	const char   *def;      /* default, as shown in --help */
	const char   *help;
	char          short_name; /* optional one-letter alias ("-c 4", "-c4"); 0: none */
	/* OPT_CALL, OPT_CALL_FLAG: 0, or -EINVAL with ERR filled */
	int         (*take)(void *cfg, const char *value, char *err, size_t errlen);
	/* another long name taken for it (the spelling another command uses),
	 * shown in --help as "(also --ALIAS)"; NULL: none */
	const char   *alias;
};

#define OPT_ERR_MAX 512

/*
 * Parse argv[0..argc) (the command's own arguments) into CFG. Accepts
 * "--name value" and "--name=value", and for options with a short_name
 * "-x value" and "-xvalue"; short flags may be bundled ("-nS"). Positional
 * arguments, before, between or after the options, fill the table's OPT_ARG
 * entries in order, then its OPT_ARGS; one more is an error. After "--"
 * every argument is positional. argv is left as it is. Returns 0, 1 when
 * --help was asked for (before a "--"), or -EINVAL with ERR filled.
 */
int opts_parse(const struct opt_desc *table, void *cfg, int argc, char **argv,
	       char *err, size_t errlen);

/* The same, marking in GIVEN[i] (one bool per table entry) the entries given. */
int opts_parse_given(const struct opt_desc *table, void *cfg, int argc, char **argv,
		     bool *given, char *err, size_t errlen);

/* "usage: USAGE", then the table's options with their help, wrapped to
 * opts_width(OUT) columns. */
void opts_usage(FILE *out, const char *usage, const struct opt_desc *table);
/* The same, wrapped to WIDTH columns (60 at least). */
void opts_usage_width(FILE *out, const char *usage, const struct opt_desc *table, int width);
/* The width help is wrapped to on OUT: the terminal's columns when OUT is
 * one, else 80. */
int opts_width(FILE *out);
/* TEXT at column COL of a line of OUT (what is before it already written),
 * its words wrapped at WIDTH columns onto lines indented by INDENT; a
 * newline in TEXT starts a new line there. Ends without a newline. */
void opts_wrap(FILE *out, const char *text, int col, int indent, int width);

/*
 * Strict number parsing, shared with list parsers. 0 or -EINVAL. Whole
 * numbers are taken written plainly only: digits, a leading '-' for a
 * negative one, no '+', no leading zeros, no spaces ("4", never "04" or
 * "+4"), so that two spellings of one value cannot both be given.
 */
int opts_parse_ll(const char *s, long long min, long long max, long long *out);
/* Why S is no whole number in [MIN, MAX], in ERR as "WHAT: 'S' ...", saying
 * the plain form when S is one written otherwise. Returns -EINVAL. */
int opts_ll_error(const char *what, const char *s, long long min, long long max,
		  char *err, size_t errlen);
/* Sizes: plain digits and a suffix (b, k, m, g, t; kb, kib, ...; any case). */
int opts_parse_size(const char *s, uint64_t *out);
/* Durations, one grammar for every option that takes one: a decimal
 * number ("30", "1.5", "0.25"; no sign, exponent or leading zero but "0.")
 * and a suffix (ns, us, µs, ms, s, m, min, h; none: s). */
int opts_parse_seconds(const char *s, double *out);
/* A decimal number as above, finite. REST NULL: S must end after it; else
 * *REST is what follows it (a suffix). 0 or -EINVAL. */
int opts_parse_decimal(const char *s, double *out, const char **rest);
/* A bound in seconds as it reads in messages: "24h", "168h (7 days)", "90s". */
void opts_format_seconds(long long s, char *out, size_t len);
/* yes/no, on/off, true/false, 1/0 (any case): 1 or 0, else -EINVAL. */
int opts_parse_bool(const char *s);

/*
 * Parse a comma-separated list of whole numbers in [min, max] into OUT (at
 * most MAXN). Returns the count, or -EINVAL with ERR naming FLAG and the bad
 * item (an empty list, an empty item or a value given twice is an error too).
 */
int opts_parse_ll_list(const char *flag, const char *s, long long min,
		       long long max, long long *out, int maxn,
		       char *err, size_t errlen);

/* Text: does S hold a control character (below 0x20, or 0x7f)? */
bool opts_has_control(const char *s);
/* S into OUT with control characters escaped (\n, \t, \r, \xNN), cut at
 * 160 characters ("..." then). */
void opts_escape(const char *s, char *out, size_t len);
/* 0, or -EINVAL with ERR ("WHAT: 'S' holds a control character; ...")
 * when S holds one. */
int opts_check_text(const char *what, const char *s, char *err, size_t errlen);
/* Positional paths (result folders, files): none with a control character,
 * none given twice (the same name, or the same file by device and inode).
 * 0 or -EINVAL with ERR naming WHAT and the path. */
int opts_check_paths(const char *what, char *const *paths, int n, char *err, size_t errlen);

#endif
