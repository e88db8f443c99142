/*
 * control: an emulated device seen from outside its emulator: its state
 * file beside the mount (io/emulate/emulate.h), whether its process lives
 * and whether the mount is there, the emulator told to stop and waited
 * for, and a path whose FUSE mount lost its server (ENOTCONN) told in
 * words with the way to clean it. Uses no FUSE; returns 0 or -errno with
 * a caller-owned message, never prints.
 */
#ifndef IO_EMULATE_CONTROL_H
#define IO_EMULATE_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <jansson.h>

struct emulate_state {
	char    mount[4096];       /* absolute, as the state file says */
	json_t *json;              /* the state file (owned) */
	pid_t   pid;
	bool    alive;             /* that pid runs, and is an eicbench */
	bool    mounted;           /* a fuse.eicbench mount is at mount */
};

/* PATH absolute without following links (a dead mount cannot be resolved). */
void emulate_abspath(const char *path, char *out, size_t len);

/* The state of the device emulated at MOUNT: 0; -ENOENT when no state file
 * is there (ERR says so); -EINVAL when it cannot be read. */
int emulate_state_read(const char *mount, struct emulate_state *st, char *err, size_t errlen);
void emulate_state_free(struct emulate_state *st);

/* Is a fuse.eicbench file system mounted at MOUNT (from mountinfo)? */
bool emulate_is_mounted(const char *mount);

/* SIGTERM to the emulator and wait until it has exited, TIMEOUT_S at most:
 * 0, -ETIMEDOUT, or -errno of kill. */
int emulate_stop(const struct emulate_state *st, double timeout_s);

/*
 * 0 when PATH can be reached (asked of its file system's server with
 * statvfs, which no cache answers), else -ENOTCONN with ERR saying that the
 * FUSE file system mounted at the mount holding it lost its server, how
 * to clean it (fusermount3 -u MOUNT), and, from its state file when there
 * is one, the command that starts the emulated device again. WHAT names
 * PATH in the message (e.g. "--tablespace-dir", "tablespace ts").
 */
int emulate_check_reachable(const char *what, const char *path, char *err, size_t errlen);

#endif
