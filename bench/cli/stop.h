/*
 * stop: Ctrl-C, SIGTERM, a hang-up (SIGHUP: the terminal or the ssh
 * session gone) and a closed pipe (SIGPIPE: `| head`) raise cli_stopped
 * instead of ending the process: a command stops at its next safe point,
 * keeps what it finished and puts the server's settings back, as after
 * Ctrl-C. The flag holds the first signal's number. A hang-up ignored
 * when the program started (nohup) stays ignored. One flag for the
 * process (the only file-scope mutable global of the program), handed to
 * the library as a const pointer (e.g. runner_cfg's stop), so library code
 * never reads it by name.
 */
#ifndef BENCH_CLI_STOP_H
#define BENCH_CLI_STOP_H

#include <signal.h>
#include <stdbool.h>

extern volatile sig_atomic_t cli_stopped;

/* Catch SIGINT, SIGTERM, SIGHUP (unless ignored) and SIGPIPE into
 * cli_stopped. RESTART: system calls the signal lands in are restarted
 * (else they fail with EINTR, for waits that must end at once). */
void cli_catch_stop(bool restart);

/* A command's exit STATUS as the program's: a run that failed (1) because
 * a caught signal stopped it is 128 + that signal (130 after Ctrl-C, as a
 * shell says of a program the signal ended); any other status as it is. */
int cli_stop_status(int status);

#endif
