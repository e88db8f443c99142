/*
 * cmd: the commands of the eicbench program. Each takes the arguments after
 * its own name and returns the exit status: 0 success, 1 a run failed,
 * 2 bad usage or bad input. Only commands print and decide exit codes.
 * ARGV points into main's argv, so argv[-2] and argv[-1] are the program and
 * the command's name (records keep the exact command line).
 */
#ifndef BENCH_CMD_CMD_H
#define BENCH_CMD_CMD_H

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

/* Print "eicbench CMD: MSG" on stderr, and return cmd_exit_code(ret). */
int cmd_fail(const char *cmd, int ret, const char *msg);

#endif
