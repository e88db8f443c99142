/*
 * testhook: environment variables that exist for the tests only
 * (EICBENCH_DROP_CACHES: the file a cold cycle writes "3" into instead of
 * /proc/sys/vm/drop_caches; EICBENCH_FAULT: stop at a named point;
 * EICBENCH_SCRIPTS: the gnuplot scripts' folder, which root would run). They
 * act only in a program run from its build tree: the folder of the running
 * executable (or its parent, for tests/) holds this module's source,
 * io/testhook.c. An installed eicbench never has that beside it (only
 * whoever may write its folder could put it there), so there they are
 * refused by the command line's checks and ignored below them.
 */
#ifndef IO_TESTHOOK_H
#define IO_TESTHOOK_H

#include <stdbool.h>
#include <stddef.h>

/* Does this program run from its build tree? Decided once. */
bool testhook_allowed(void);

/* getenv(NAME) when test hooks are allowed, else NULL. */
const char *testhook_getenv(const char *name);

/* 0, or -EINVAL with ERR naming a test hook set in the environment of a
 * program that does not take them. */
int testhook_check(char *err, size_t errlen);

#endif
