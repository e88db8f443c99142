/*
 * common: what every command shares (see cmd.h): exit codes from -errno,
 * the message on failure, and what a sweep's failure says. Only the command layer prints verdicts and
 * decides exit codes; the library returns 0 or -errno with a message.
 */
#include <errno.h>
#include <stdio.h>

#include "bench/cmd/cmd.h"
#include "bench/sweep/runner.h"

int cmd_exit_code(int ret)
{
	if (ret == 0)
		return 0;
	if (ret == -EBUSY)
		return EXIT_BUSY;
	return ret == -EINVAL ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
}

int cmd_fail(const char *cmd, int ret, const char *msg)
{
	fprintf(stderr, "eicbench %s: %s\n", cmd, msg);
	return cmd_exit_code(ret);
}

int cmd_runner_end(const struct runner *r, int ret, const char *err, bool hint)
{
	const char *cmd = r->cfg.command;

	if (ret == 0)
		return 0;
	if (err[0])
		fprintf(stderr, "eicbench %s: %s\n", cmd, err);
	if (hint && r->stage == RUNNER_TRIALS)	/* the folder exists once setup is done */
		fprintf(stderr, "eicbench %s: %sfinished trials are in %s; finish with: eicbench %s --resume %s%s\n",
			cmd, ret == -EINTR ? "interrupted; " : "", r->dir, cmd, r->dir,
			r->srv.external ? " --dsn ... --restart-cmd ... (the same as before)" : "");
	return cmd_exit_code(ret);
}
