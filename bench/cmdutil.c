/*
 * cmdutil: what every command shares (see cmd.h): exit codes from -errno,
 * the message on failure, and putting back settings a command left
 * changed. In the library, so that the runner and the tests can use it.
 */
#include <errno.h>
#include <stdio.h>

#include "bench/cmd.h"
#include "bench/settings.h"

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

int cmd_recover(const char *cmd, struct server *s)
{
	char err[2048];
	int said = 0;

	if (!s->external && server_running_pid(s) <= 0)
		return 0;	/* a journal is restored when the server is next started */
	if (settings_recover(s, &said, err, sizeof(err)) < 0) {
		fprintf(stderr, "eicbench %s: %s\n", cmd, err);
		return -EIO;
	}
	if (said)
		fprintf(stderr, "eicbench %s: %s\n", cmd, err);
	return 0;
}
