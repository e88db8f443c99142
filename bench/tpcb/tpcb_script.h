/*
 * tpcb_script: the scripts of a TPC-B run, compiled once: pgbench's three
 * built-in scripts (their text is sql/tpcb/<name>.sql, so "-b tpcb-like"
 * and "-f" of the same text are one code path) and the user's files, each
 * with a weight. A script is a list of commands: SQL (its :variables as
 * literal runs and slots for the simple protocol, and as $1, $2 ... in
 * order of occurrence for the others), \set, \sleep, \if/\elif/\else/\endif
 * (jumps resolved at compile time), \gset/\aset on the SQL before them, and
 * \startpipeline/\syncpipeline/\endpipeline. Variables are slots in one
 * table for the whole set: -D definitions, \set targets, :scale,
 * :client_id, :random_seed and :default_seed. Errors are bad input
 * (-EINVAL) with pgbench's message and the file, line and column, and for
 * syntax errors the command's line with a caret under the place.
 */
#ifndef BENCH_TPCB_TPCB_SCRIPT_H
#define BENCH_TPCB_TPCB_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/tpcb/tpcb_expr.h"

#define TPCB_MAX_SCRIPTS   128          /* as pgbench */
#define TPCB_MAX_PARAMS    255          /* :variables of one SQL command */
#define TPCB_NBUILTINS     3

enum tpcb_builtin { TPCB_TPCB_LIKE, TPCB_SIMPLE_UPDATE, TPCB_SELECT_ONLY };

enum tpcb_cmd_kind {
	TPCB_SQL, TPCB_SET, TPCB_SLEEP, TPCB_IF, TPCB_ELIF, TPCB_ELSE, TPCB_ENDIF,
	TPCB_STARTPIPE, TPCB_SYNCPIPE, TPCB_ENDPIPE,
};

enum tpcb_gset { TPCB_NO_GSET, TPCB_GSET, TPCB_ASET };

/* A literal run of an SQL command's text, or a variable (slot >= 0; its
 * ":name" as written is the run, sent as is when the variable is unset). */
struct tpcb_seg {
	uint32_t off, len;
	int32_t  slot;
};

/* The longest \sleep, in µs: its nanoseconds fit in 64 bits (about 292
 * years). A longer one is an error, never a wrap-around. */
#define TPCB_SLEEP_MAX_US (INT64_MAX / 1000)

struct tpcb_cmd {
	enum tpcb_cmd_kind kind;
	int   line;                     /* in its script, from 1 */
	char *text;                     /* as written: the SQL, or the meta-command's line */
	/* SQL */
	char *param_sql;                /* :name -> $n, in order of occurrence */
	int   nparams;
	int32_t *param_slot;
	int   nsegs;
	struct tpcb_seg *seg;
	enum tpcb_gset gset;
	char *prefix;                   /* \gset's variable prefix ("" when none) */
	char  prepname[16];             /* -M prepared: "P_<its number in the set>" */
	/* \set: the target; \set, \if, \elif: the expression */
	int   slot, expr;
	/* \sleep: a constant, or the variable holding it (slot >= 0), in
	 * unit_us; a negative time sleeps not at all (as pgbench) */
	int64_t amount, unit_us;
	int   sleep_slot;
	/* \if, \elif: where to go when false (the next \elif, \else or \endif) */
	int   jump;
	/* \elif, \else: their \endif (where a branch that ran goes on from) */
	int   end;
};

struct tpcb_script {
	char  name[256];                /* the file, or "<builtin: TPC-B (sort of)>" */
	char  builtin[16];              /* its builtin name, or "" */
	char *text;
	int   weight;
	int   ncmds, first;             /* first: its commands' numbering in the set */
	struct tpcb_cmd *cmd;
	bool  waits;                    /* \gset, \aset, \sleep or a pipeline of its own */
};

struct tpcb_def {
	int   slot;
	char *value;
};

struct tpcb_scripts {
	int    n;
	struct tpcb_script s[TPCB_MAX_SCRIPTS];
	int64_t total_weight;
	int    ncmds;                   /* in all scripts */
	struct tpcb_exprs exprs;
	int    nslots, capslots;
	char **names;                   /* by slot */
	bool  *assigned;                /* by slot: a \set, a -D or the run sets it */
	int    ndefs;
	struct tpcb_def *defs;          /* -D, in order */
	int    slot_scale, slot_client_id, slot_random_seed, slot_default_seed;
	bool   builtin_used, any_gset;
	/* variables read by expressions and \sleep, for the check at the end */
	int    nrefs, caprefs;
	struct { int slot, script; size_t off; } *refs;
};

const char *tpcb_builtin_name(enum tpcb_builtin b);
/* pgbench's description: "<builtin: TPC-B (sort of)>" */
const char *tpcb_builtin_desc(enum tpcb_builtin b);
/* The builtin NAME names, or the only one it is a prefix of: 0, or
 * -EINVAL with ERR ("no builtin script found", "ambiguous ..."). */
int tpcb_builtin_find(const char *name, enum tpcb_builtin *out, char *err, size_t errlen);
/* A builtin's script text (the SQL file without its leading comments). */
const char *tpcb_builtin_text(enum tpcb_builtin b);

/* "NAME@W": NAME into OUT, the weight (0..INT_MAX; 1 when none) into *W.
 * 0, or -EINVAL with pgbench's message. */
int tpcb_script_weight(const char *spec, char *out, size_t outlen, int *w,
		       char *err, size_t errlen);

void tpcb_scripts_init(struct tpcb_scripts *set);
void tpcb_scripts_free(struct tpcb_scripts *set);

/* Add a builtin, a file, or a text under NAME, with weight W. */
int tpcb_scripts_add_builtin(struct tpcb_scripts *set, enum tpcb_builtin b, int w,
			     char *err, size_t errlen);
int tpcb_scripts_add_file(struct tpcb_scripts *set, const char *path, int w,
			  char *err, size_t errlen);
int tpcb_scripts_add_text(struct tpcb_scripts *set, const char *name, const char *text,
			  int w, char *err, size_t errlen);

/* -D "NAME=VALUE": 0, or -EINVAL ("invalid variable definition", a bad name). */
int tpcb_scripts_define(struct tpcb_scripts *set, const char *def, char *err, size_t errlen);

/* After the last add: a script at all (the default tpcb-like when none), a
 * weight above zero, and every variable an expression reads set by
 * something. 0 or -EINVAL with ERR. */
int tpcb_scripts_finish(struct tpcb_scripts *set, char *err, size_t errlen);

/* The slot of NAME (LEN bytes), made on first use: >= 0 or -ENOMEM. */
int tpcb_scripts_slot(struct tpcb_scripts *set, const char *name, size_t len);
/* The slot of NAME, or -1. */
int tpcb_scripts_find(const struct tpcb_scripts *set, const char *name, size_t len);

/* A command's first line as reports show it, into BUF. */
void tpcb_cmd_first_line(const struct tpcb_cmd *c, char *buf, size_t len);

#endif
