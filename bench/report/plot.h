/*
 * plot: running gnuplot for a report. Finds a script of the scripts folder
 * ($EICBENCH_SCRIPTS, else scripts/ next to the program, or one level up for
 * the test programs) and runs "gnuplot -c SCRIPT ARGS..." as an argv (never
 * a shell), its output in a log file, for 60 s at most. Gnuplot missing is a
 * skip, not an error: the plot data stays for the user.
 */
#ifndef BENCH_REPORT_PLOT_H
#define BENCH_REPORT_PLOT_H

#include <stddef.h>

#define PLOT_TIMEOUT_MS 60000

/* The path of script NAME into PATH. 0 or -ENOENT. */
int plot_find_script(const char *name, char *path, size_t len);

/*
 * Run gnuplot -c SCRIPT (found by name) with ARGS (NULL-terminated, at most
 * 12), writing its messages to LOG (removed when it succeeds). 0 done; 1
 * skipped (no gnuplot, or no script) with MSG saying why; -errno with MSG
 * naming LOG.
 */
int plot_run(const char *script, char *const args[], const char *log,
	     char *msg, size_t msglen);

#endif
