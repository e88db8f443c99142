/*
 * datadir: where the program's data files are: the gnuplot scripts
 * (scripts/plot-NAME.gp) and the shipped sweep files (sweeps/NAME.ini). From a
 * checkout they are beside the program; installed, in PREFIX/share/eicbench,
 * found from the program's own path first (so a tree staged with DESTDIR or
 * moved elsewhere works), then the folder it was built for.
 */
#ifndef BENCH_CLI_DATADIR_H
#define BENCH_CLI_DATADIR_H

#include <stddef.h>

/* The folders it was built to be installed in (make's SHAREDIR, DOCDIR). */
const char *datadir_installed(void);
const char *datadir_docs(void);

/* The folder holding scripts/ and sweeps/ into DIR: 0, or -ENOENT when
 * none of the places above holds the gnuplot scripts. */
int datadir_find(char *dir, size_t len);

/* The sweep file NAME as given when it exists; else, for a relative NAME,
 * the data folder's NAME or sweeps/NAME when one exists. PATH receives the
 * one to read (NAME itself when none is found, so the reader says why). */
void datadir_sweep_file(const char *name, char *path, size_t len);

/* The test hooks (io/testhook.h) set in the environment of a program that
 * does not run from its build tree: -EINVAL with ERR naming the one, so
 * that an installed eicbench refuses them (exit 2) before anything. */
int datadir_check_hooks(char *err, size_t errlen);

#endif
