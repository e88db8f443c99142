/*
 * tpcb_meta: the meta-commands of a script compiled from their text: \set
 * NAME EXPR, \if/\elif EXPR, \else, \endif, \sleep N [us|ms|s] or \sleep
 * :var [unit], \gset/\aset [PREFIX] joined to the SQL before them, and
 * \startpipeline, \syncpipeline, \endpipeline; then, once a script is read,
 * the structure of its conditionals (jumps resolved) and pipelines. The
 * messages are pgbench's, with the file, line and column, and under a
 * syntax error the command's line with a caret. Part of tpcb_script.
 */
#ifndef BENCH_TPCB_TPCB_META_H
#define BENCH_TPCB_TPCB_META_H

#include <stddef.h>

#include "bench/tpcb/tpcb_exprparse.h"
#include "bench/tpcb/tpcb_scan.h"
#include "bench/tpcb/tpcb_script.h"

/* Compile meta-command R of script SC into C, naming variables' slots
 * through SLOT (tpcb_script's table, with SET as its argument). 0,
 * -EINVAL with ERR, -ENOMEM. */
int tpcb_meta_compile(struct tpcb_scripts *set, struct tpcb_script *sc, struct tpcb_cmd *c,
		      const struct tpcb_raw *r, tpcb_slot_fn slot, char *err, size_t errlen);

/* \gset or \aset R onto the SQL command last compiled in SC. */
int tpcb_meta_gset(struct tpcb_scripts *set, struct tpcb_script *sc, const struct tpcb_raw *r,
		   char *err, size_t errlen);

/* Conditionals matched (their jumps set) and pipelines opened and closed in
 * order, in script SC. 0 or -EINVAL with ERR. */
int tpcb_meta_check(struct tpcb_scripts *set, struct tpcb_script *sc, char *err, size_t errlen);

#endif
