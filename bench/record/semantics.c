/*
 * semantics: the meaning of effective_io_concurrency per version; see
 * semantics.h. Checked against PostgreSQL's source and documentation: up
 * to 12 the value counted spindles, turned into n*H(n) pages (the
 * conversion SELECT round(sum(OLD / n::float)) FROM generate_series(1, OLD)
 * s(n)); 13 to 17 it is the prefetch distance; 18 caps a read stream's
 * I/Os in flight.
 */
#include "bench/record/semantics.h"

#include <math.h>
#include <string.h>

const char *semantics_eic(int version_num)
{
	if (version_num >= 180000)
		return "PostgreSQL 18 and later: bitmap heap scans and sequential scans read through read streams with asynchronous I/O; effective_io_concurrency caps each stream's I/Os in flight (0 makes their reads synchronous, one at a time; the default is 16) and io_method decides how they are issued.";
	if (version_num >= 170000)
		return "PostgreSQL 17: effective_io_concurrency is the bitmap heap scan's prefetch distance in pages (posix_fadvise(WILLNEED) for each block that far ahead, ramping up 0, 1, 2, 4, ... to it; 0 gives no advice; the default is 1); sequential scans read through read streams whose look-ahead it bounds, without advice, so it changes little there.";
	if (version_num >= 130000)
		return "PostgreSQL 13 to 16: effective_io_concurrency is the prefetch distance in pages; the bitmap heap scan gives posix_fadvise(WILLNEED) for each block that far ahead, ramping up 0, 1, 2, 4, ... to it (0 gives no advice; the default is 1); no other scan prefetches.";
	return "PostgreSQL 12 and older: effective_io_concurrency counts spindles; the prefetch distance in pages is n*H(n) (1->1, 2->3, 4->8, 20->72, 100->519, 1000->7485).";
}

const char *semantics_default(const char *name, int version_num)
{
	if (!strcmp(name, "effective_io_concurrency"))
		return version_num >= 180000 ? "16" : "1";
	if (!strcmp(name, "io_method"))
		return version_num >= 180000 ? "worker" : NULL;
	return NULL;
}

long semantics_convert_pre13(int old)
{
	double sum = 0;

	if (old < 0 || old > SEMANTICS_PRE13_MAX)
		return -1;
	for (int n = 1; n <= old; n++)
		sum += (double)old / n;
	return lround(sum);
}
