/*
 * memhold: the host's free page reporting paused for a command's cold
 * reads (io/pagereport.h), and the memory the host had taken back given
 * back once before the first of them, so that no read after a drop or an
 * eviction of the cache waits on the host for memory. Left on with
 * --keep-page-reporting or EICBENCH_PAGE_REPORTING=keep (then only a pause
 * a dead eicbench left is put back). Shared by the sweeps' trials and the
 * probe's buffered cold points; each records what it did in its meta.json
 * as host.free_page_reporting.pause (memhold_take's JSON).
 */
#ifndef BENCH_OBSERVE_MEMHOLD_H
#define BENCH_OBSERVE_MEMHOLD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/pagereport.h"

/* The machine-wide state file of the pause (under /run: gone at boot). */
#define MEMHOLD_DIR   "/run/eicbench"
#define MEMHOLD_STATE MEMHOLD_DIR "/page-reporting"

/*
 * Before a command's cold reads: pause reporting (or, with KEEP or
 * EICBENCH_PAGE_REPORTING=keep, only put back a pause a dead eicbench left), say so on stderr as "eicbench CMD:
 * ..." (the reads named as WHAT, e.g. "the trials"), and when this hold is the one to give memory back, give back
 * twice DATA_BYTES (the most the reads may cache, with room for the page
 * allocator not taking the pages just freed) and 1 GiB, in whole chunks.
 * Fills H (pagereport_release(H) lets go after the reads); returns the
 * pause's record, or NULL where no balloon reports free pages.
 */
json_t *memhold_take(struct pagereport_hold *h, const char *cmd, const char *what, bool keep,
		     uint64_t data_bytes);

/* EICBENCH_PAGE_REPORTING unset, "keep" or "pause": 0; else -EINVAL with
 * ERR naming the value (checked before anything is written). */
int memhold_check_env(char *err, size_t errlen);

/* Set host.free_page_reporting.pause of META (where the head has
 * free_page_reporting) to PAUSE; false when there is no such object. */
bool memhold_record(json_t *meta, json_t *pause);

#endif
