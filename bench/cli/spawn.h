/*
 * spawn: run a program as a child process, bounded in time: the one place
 * that execs a program (PostgreSQL's tools and server, a --restart-cmd,
 * gnuplot). An argv, never a shell. The child reads /dev/null, writes its
 * stdout and stderr to a file or into a pipe whose last part the parent
 * keeps, and takes no other descriptor of eicbench's with it (a lock it
 * inherited would be held for as long as it runs). Nor does it take
 * eicbench's environment, unless asked: only what any program needs (PATH,
 * HOME, TMPDIR, TZ, the locale: LANG, LANGUAGE, LC_*) and gnuplot's font
 * and library paths go with it, never a secret (PGPASSWORD, SSH_AUTH_SOCK,
 * AWS_*) nor libpq's client variables (PGHOST, PGPORT, ...), which no
 * server or tool run here uses. At the deadline it is killed (SIGKILL).
 * Nothing here prints; errors are -errno.
 */
#ifndef BENCH_CLI_SPAWN_H
#define BENCH_CLI_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct spawn_opts {
	char *const *argv;      /* NULL-terminated; argv[0] is the program */
	bool         path;      /* look argv[0] up on PATH (execvp), else a path */
	char        *out;       /* non-NULL: stdout and stderr captured here, the
				 * last part kept, NUL-terminated */
	size_t       outlen;
	int          out_fd;    /* without OUT: stdout and stderr go to this
				 * descriptor; -1 leaves them as they are */
	double       timeout_s; /* bound on the whole run */
	const char  *user;      /* non-NULL: become this user (UID, GID) first */
	uid_t        uid;
	gid_t        gid;
	bool         c_locale;  /* LC_ALL=C: output in English, to be read */
	bool         new_pgroup; /* own process group: Ctrl-C at the terminal is
				  * eicbench's to handle, not the child's */
	bool         whole_env; /* the whole environment (the user's own
				 * command: a --restart-cmd may need ssh's agent) */
};

/* Is the environment entry ENTRY ("NAME=value") one a child takes
 * without whole_env? */
bool spawn_env_kept(const char *entry);

/*
 * Run O->argv and wait for it. Its exit status (0..255; 128 + the signal
 * that ended it; 126 when the user switch failed, 127 when the program
 * could not be run, with a line saying why in its output), or -errno:
 * -ETIMEDOUT when it was killed at the deadline.
 */
int spawn_run(const struct spawn_opts *o);

/* Take on USER's groups, then GID and UID (for a child, as root). 0 or -errno. */
int spawn_become(const char *user, uid_t uid, gid_t gid);

/*
 * The child's side, for a caller that forks itself (a detached server):
 * the set-up of spawn_run() with output to OUT_FD (-1: as it is), then
 * exec. Does not return.
 */
void spawn_exec(const struct spawn_opts *o, int out_fd) __attribute__((noreturn));

#endif
