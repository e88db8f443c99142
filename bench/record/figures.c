/*
 * figures: the figures each workload's records hold; see figures.h.
 */
#include "bench/record/figures.h"

#include <string.h>

const struct record_figure record_figures_bitmap[] = {
	{ "explain.bitmap.heap_phase.total_ms", "heap phase", "ms", 1 },
	{ "explain.bitmap.index_phase.total_ms", "index phase", "ms", 1 },
	{ "explain.execution_ms", "execution", "ms", 1 },
	{ "phases.heap.disk.avg_queue_depth", "queue depth in the heap phase", "reads", 0 },
	{ "phases.heap.backend.cpu_share", "backend CPU in the heap phase", "cores", 1 },
	{ NULL, NULL, NULL, 0 },
};

const struct record_figure record_figures_replay[] = {
	{ "replay.elapsed_ms", "replayed heap phase", "ms", 1 },
	{ "replay.wait_ms", "replay's read wait", "ms", 1 },
	{ "replay.reads", "replay's reads", "reads", 0 },
	{ "disk.reads", "device requests in the replay", "requests", 0 },
	{ NULL, NULL, NULL, 0 },
};

const struct record_figure record_figures_tpcb[] = {
	{ "tps", "tps", "transactions/s", 0 },
	{ "tpcb.latency_ms.p50", "latency p50", "ms", 1 },
	{ "tpcb.latency_ms.p99", "latency p99", "ms", 1 },
	{ "tpcb.transactions", "transactions", "transactions", 0 },
	{ NULL, NULL, NULL, 0 },
};

const struct record_figure *record_figures(const char *name, const char **summary)
{
	static const struct {
		const char *name, *summary;
		const struct record_figure *figures;
	} known[] = {
		{ "bitmap", RECORD_SUMMARY_BITMAP, record_figures_bitmap },
		{ "tpcb", RECORD_SUMMARY_TPCB, record_figures_tpcb },
		{ "replay", RECORD_SUMMARY_REPLAY, record_figures_replay },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(name, known[i].name)) {
			if (summary)
				*summary = known[i].summary;
			return known[i].figures;
		}
	return NULL;
}

int record_log_is_warning(const char *line)
{
	static const char *const marks[] = { "WARNING:", "ERROR:", "FATAL:", "PANIC:",
		"checkpoints are occurring too frequently", NULL };

	for (int i = 0; marks[i]; i++)
		if (strstr(line, marks[i]))
			return 1;
	return 0;
}
