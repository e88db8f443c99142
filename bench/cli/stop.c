/*
 * stop: Ctrl-C, SIGTERM, a hang-up and a closed pipe as a flag (see
 * stop.h).
 */
#include "bench/cli/stop.h"

#include <signal.h>

volatile sig_atomic_t cli_stopped;

static void on_stop(int sig)
{
	if (!cli_stopped)
		cli_stopped = sig;
}

void cli_catch_stop(bool restart)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa = { .sa_handler = on_stop, .sa_flags = restart ? SA_RESTART : 0 };

	sigemptyset(&sa.sa_mask);
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction was;

		/* started under nohup: a hang-up stays ignored */
		if (sigs[i] == SIGHUP && sigaction(SIGHUP, NULL, &was) == 0 && was.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

int cli_stop_status(int status)
{
	return cli_stopped && status == 1 ? 128 + cli_stopped : status;
}
