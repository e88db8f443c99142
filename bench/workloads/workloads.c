/*
 * workloads: the table of workloads; see workloads.h.
 */
#include "bench/workloads/workloads.h"

#include <string.h>

const struct workload *const workload_table[] = {
	&workload_bitmap,
	&workload_tpcb,
	&workload_replay,
	NULL,
};

const struct workload *workload_find(const char *name)
{
	for (int i = 0; workload_table[i]; i++)
		if (!strcmp(workload_table[i]->name, name))
			return workload_table[i];
	return NULL;
}
