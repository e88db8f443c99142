/*
 * cmd: the commands of the eicbench program. Each takes the arguments after
 * its own name and returns the exit status: 0 success, 1 a run failed,
 * 2 bad usage or bad input, 3 busy (the lock of the cluster or of the
 * result folder held by another command); main makes a run stopped by a signal 128 +
 * that signal (cli/stop.h). Only commands print and decide exit codes.
 * ARGV points into main's argv, so argv[-2] and argv[-1] are the program and
 * the command's name (records keep the exact command line).
 */
#ifndef BENCH_CMD_CMD_H
#define BENCH_CMD_CMD_H

#include <stdbool.h>

#define EXIT_RUN_FAILED 1
#define EXIT_BAD_INPUT  2
#define EXIT_BUSY       3	/* the cluster or result folder held by another command */

int cmd_compare(int argc, char **argv);
int cmd_confsweep(int argc, char **argv);
int cmd_device(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_server(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_tpcb(int argc, char **argv);

/* Each command's man page (bench/cli/manpage.h): its summary, its forms with
 * the option tables it parses with, its prose. eicbench(1)'s own is
 * cmd_main_page. */
struct man_page;
extern const struct man_page cmd_compare_page, cmd_confsweep_page, cmd_device_page, cmd_export_page,
	cmd_load_page, cmd_probe_page, cmd_report_page, cmd_run_page, cmd_server_page,
	cmd_sweep_page, cmd_tpcb_page, cmd_main_page;

/* The hidden command that writes the man pages (make does, at build time):
 * eicbench.1 with PAGES' summaries, and one page per command. */
int cmd_manual(int argc, char **argv, const char *version,
	       const struct man_page *const *pages, int npages);

/* What commands show the same way, for the steps of `run` too. */
struct server;
struct dataset_info;
/* "initialized DATADIR (PostgreSQL V, ...)" after server_init (LISTEN: --listen). */
void cmd_server_said_init(const struct server *s, const char *listen);
/* "running: pid N, ready after MS ms; connect with: psql ..." */
void cmd_server_said_start(const struct server *s, double ready_ms);
/* The loaded (or reused) data set: sizes and times, or one JSON object. */
void cmd_load_said(const struct dataset_info *d, bool json);
/* dataset_load()'s progress into the bar ARG (struct progress). */
void cmd_load_progress(void *arg, const char *step, double done, double total,
		       const char *unit);

/* Map a module's return code to an exit status (-EINVAL is bad input,
 * -EBUSY a lock another command holds). */
int cmd_exit_code(int ret);

/* Print "eicbench CMD: MSG" on stderr, and return cmd_exit_code(ret). */
int cmd_fail(const char *cmd, int ret, const char *msg);

/* After runner_main() returned RET with ERR: what went wrong, and with HINT
 * how to finish a sweep stopped in its trials; the exit status. */
struct runner;
int cmd_runner_end(const struct runner *r, int ret, const char *err, bool hint);

#endif
