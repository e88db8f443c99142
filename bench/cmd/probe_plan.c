/*
 * probe_plan: checks of a probe's plan that every form of `eicbench probe`
 * (a file, a relation, the data set) makes before it reads: the buffers the
 * depths and block sizes would need stay within PROBE_MAX_BUF_BYTES.
 */
#include "bench/cmd/probe.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

int probe_cmd_check_buffers(const struct probe_plan *p, char *err, size_t len)
{
	unsigned maxd = 0;

	for (unsigned i = 0; i < p->ndepths; i++)
		maxd = p->depths[i] > maxd ? p->depths[i] : maxd;
	for (unsigned i = 0; i < p->nengines; i++) {
		bool stream = p->engines[i]->flags & ENGINE_COMBINE;
		uint64_t read_bytes = (uint64_t)(stream ? p->combine : 1) * p->block_bytes;
		char comb[32] = "";

		if (p->engines[i] == &engine_psync || (uint64_t)maxd * read_bytes <= PROBE_MAX_BUF_BYTES)
			continue;	/* psync runs at depth 1 */
		if (stream)
			snprintf(comb, sizeof(comb), " and --combine %u", p->combine);
		snprintf(err, len, "--depth %u with blocks of %u bytes%s: %u reads of %" PRIu64 " bytes in flight need %" PRIu64 " MiB, more than the %u MiB of buffers allowed (depth x %sblock size, a fixed bound); lower one",
			 maxd, p->block_bytes, comb, maxd, read_bytes,
			 ((uint64_t)maxd * read_bytes) >> 20, PROBE_MAX_BUF_BYTES >> 20,
			 stream ? "--combine x " : "");
		return -EINVAL;
	}
	return 0;
}

