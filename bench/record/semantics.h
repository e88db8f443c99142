/*
 * semantics: what effective_io_concurrency (and the settings around it)
 * means on a server version, in one place for records and reports: up to
 * 12 it counted spindles, 13 to 17 it is the prefetch distance in pages,
 * from 18 it caps the reads a read stream keeps in flight, io_method
 * saying how they are issued.
 */
#ifndef BENCH_RECORD_SEMANTICS_H
#define BENCH_RECORD_SEMANTICS_H

/* One sentence for VERSION_NUM (e.g. 150018). */
const char *semantics_eic(int version_num);

/* What setting NAME is on VERSION_NUM when nothing sets it, for the
 * settings the suite reasons about (effective_io_concurrency, io_method);
 * NULL for others. */
const char *semantics_default(const char *name, int version_num);

#define SEMANTICS_PRE13_MAX 1000  /* the setting's maximum, before and after 13 */

/* A pre-13 ("spindles") value as a prefetch distance in pages:
 * round(sum_{n=1..old} old/n); -1 outside 0..1000. */
long semantics_convert_pre13(int old);

#endif
