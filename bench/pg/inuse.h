/*
 * inuse: who uses a folder, before it is unmounted: a running PostgreSQL
 * cluster with a tablespace inside it (a postmaster is a process whose
 * working directory holds a postmaster.pid naming it; its pg_tblspc links
 * say where its tablespaces are), or any process whose working directory,
 * root or an open file is inside it. From /proc; never prints.
 */
#ifndef BENCH_PG_INUSE_H
#define BENCH_PG_INUSE_H

#include <stddef.h>

/* 1 when something uses DIR (WHO says what, and how to let go), 0 when
 * nothing does, -errno when /proc cannot be read. */
int inuse_find(const char *dir, char *who, size_t len);

#endif
