/*
 * pagereport: pause the kernel's free page reporting for the length of a
 * sweep, and put it back. Where a virtio balloon reports free pages
 * (sysstat_page_reporting_read), memory freed by a drop of the caches goes
 * back to the host within seconds, and the next trial's page cache must be
 * given memory again by the host first: about 30 µs of the reader's kernel
 * time for each 8 KiB page on the project's VM, in some trials and not in
 * others. Raising mm's page_reporting_order above the kernel's largest
 * block (/proc/buddyinfo) stops the reporting; memory already reported is
 * then given back once by touching it (pagereport_back), and stays.
 *
 * The order to put back is kept in a state file with the boot it belongs
 * to, locked shared by every eicbench that holds the pause: the last one
 * to let go puts the order back, and one that finds the file unlocked from
 * this boot (its holder died) puts that order back before anything else.
 * Knows nothing of PostgreSQL.
 */
#ifndef IO_PAGEREPORT_H
#define IO_PAGEREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/sysstat.h"

#define PAGEREPORT_BACK_CHUNK (64ull << 20)   /* memory is given back in chunks of this */

struct pagereport_hold {
	int    fd;                   /* the state file, locked shared while held; -1 */
	bool   on;                   /* the balloon reports free pages */
	bool   paused;               /* reporting is paused while this is held */
	bool   by_us;                /* this hold paused it (else another eicbench had) */
	bool   found_paused;         /* it was paused already with no eicbench holding it
				      * (the order set by hand): left as it was after */
	long   order_before;         /* the order put back at the end; -1 unknown */
	long   order_paused;         /* the order while paused; -1 */
	double backed_mib, backed_s; /* memory touched after the pause, and how long it took */
	char   why[256];             /* on but not paused: why */
	char   order_path[SYSSTAT_PATH_MAX];
	char   proc_root[SYSSTAT_PATH_MAX];   /* "" for /proc */
};

/* The pause is this hold's to give memory back for: it paused it, or
 * found it paused with nobody holding it. */
static inline bool pagereport_gives_back(const struct pagereport_hold *h)
{
	return h->by_us || h->found_paused;
}

/*
 * Pause reporting under SYS_ROOT (NULL: "/sys"; PROC_ROOT likewise for
 * "/proc") with the state file STATE_PATH. Nothing to do when no balloon
 * reports (H->on false). When the kernel refuses the order or the files
 * cannot be written, H->why says so and reporting goes on. 0, or -errno of
 * the state file when it cannot be opened or locked (H->why says which).
 */
int pagereport_pause(struct pagereport_hold *h, const char *sys_root, const char *proc_root,
		     const char *state_path);

/*
 * Give memory back from the host: touch WANT bytes (in whole chunks) of anonymous
 * memory, never taking MemAvailable below the larger of 1 GiB and 5% of
 * MemTotal, hold it all, then free it. Only after a pause by this hold
 * (else nothing). Sets H->backed_mib and H->backed_s.
 */
void pagereport_back(struct pagereport_hold *h, const char *proc_root, uint64_t want);

/* Let go; the last holder puts the order back. Safe to call twice. */
void pagereport_release(struct pagereport_hold *h);

/* The order a holder that died left in STATE_PATH put back under SYS_ROOT:
 * 1 when it did, 0 when there was nothing to do (or a live holder). */
int pagereport_recover(const char *sys_root, const char *proc_root, const char *state_path);

#endif
