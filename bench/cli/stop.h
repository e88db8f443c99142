/*
 * stop: Ctrl-C and SIGTERM raise cli_stopped instead of ending the process:
 * a command stops at its next safe point and keeps what it finished. One
 * flag for the process (the only file-scope mutable global of the
 * program), handed to the library as a const pointer (e.g. runner_cfg's
 * stop), so library code never reads it by name.
 */
#ifndef BENCH_CLI_STOP_H
#define BENCH_CLI_STOP_H

#include <signal.h>
#include <stdbool.h>

extern volatile sig_atomic_t cli_stopped;

/* Catch SIGINT and SIGTERM into cli_stopped. RESTART: system calls the
 * signal lands in are restarted (else they fail with EINTR, for waits that
 * must end at once). */
void cli_catch_stop(bool restart);

#endif
