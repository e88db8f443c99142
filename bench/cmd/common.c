/*
 * common: what every command shares (see cmd.h): exit codes from -errno
 * and the message on failure. Only the command layer prints verdicts and
 * decides exit codes; the library returns 0 or -errno with a message.
 */
#include <errno.h>
#include <stdio.h>

#include "bench/cmd/cmd.h"

int cmd_exit_code(int ret)
{
	if (ret == 0)
		return 0;
	return ret == -EINVAL ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
}

int cmd_fail(const char *cmd, int ret, const char *msg)
{
	fprintf(stderr, "eicbench %s: %s\n", cmd, msg);
	return cmd_exit_code(ret);
}
