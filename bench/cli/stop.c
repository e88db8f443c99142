/*
 * stop: Ctrl-C and SIGTERM as a flag (see stop.h).
 */
#include "bench/cli/stop.h"

#include <signal.h>

volatile sig_atomic_t cli_stopped;

static void on_stop(int sig)
{
	(void)sig;
	cli_stopped = 1;
}

void cli_catch_stop(bool restart)
{
	struct sigaction sa = { .sa_handler = on_stop, .sa_flags = restart ? SA_RESTART : 0 };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
