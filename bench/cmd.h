/*
 * cmd: the commands of the eicbench program. Each takes the arguments after
 * its own name and returns the exit status: 0 success, 1 a run failed,
 * 2 bad usage or bad input. Only commands print and decide exit codes.
 * ARGV points into main's argv, so argv[-2] and argv[-1] are the program and
 * the command's name (records keep the exact command line).
 */
#ifndef BENCH_CMD_H
#define BENCH_CMD_H

#include <signal.h>
#include <stdbool.h>

#define EXIT_RUN_FAILED 1
#define EXIT_BAD_INPUT  2

int cmd_compare(int argc, char **argv);
int cmd_confsweep(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_server(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_tpcb(int argc, char **argv);

/* Map a module's return code to an exit status (-EINVAL is bad input). */
int cmd_exit_code(int ret);

struct server;
/* Restore a settings journal a killed command left for S (running), saying
 * so on stderr. 0, or -EIO when it could not be (said, with what is left). */
int cmd_recover(const char *cmd, struct server *s);

/* The command line (redacted) that names this process as a lock's holder. */
void cmd_set_line(int argc, char *const argv[]);

/* Take the lock of S's cluster, or of the result folder DIR, for the rest of
 * the process (bench/lock.h). 0; -EINVAL when another command holds it or
 * the lock file is unsafe (exit 2), another -errno; ERR says which. */
int cmd_lock_cluster(const struct server *s, char *err, size_t errlen);
int cmd_lock_folder(const char *dir, char *err, size_t errlen);

/* Ctrl-C and SIGTERM raise cmd_stopped instead of ending the process: a
 * command stops at its next safe point and keeps what it finished. One
 * flag for the process, so a command that runs others in-process (run)
 * sees it too. RESTART: system calls the signal lands in are restarted
 * (else they fail with EINTR, for waits that must end at once). */
extern volatile sig_atomic_t cmd_stopped;
void cmd_catch_stop(bool restart);

/* Print "eicbench CMD: MSG" on stderr, and return cmd_exit_code(ret). */
int cmd_fail(const char *cmd, int ret, const char *msg);

#endif
