/*
 * control: the state file, the emulator's process and mount, stopping it,
 * and a lost mount in words; see control.h.
 */
#include "io/emulate/control.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "io/clock.h"
#include "io/emulate/emulate.h"
#include "io/errmsg.h"
#include "io/file.h"

void emulate_abspath(const char *path, char *out, size_t len)
{
	char cwd[PATH_MAX], joined[PATH_MAX * 2], *parts[512];
	size_t n = 0, o = 0;
	char *tok, *save;

	if (path[0] != '/' && getcwd(cwd, sizeof(cwd)))
		snprintf(joined, sizeof(joined), "%s/%s", cwd, path);
	else
		snprintf(joined, sizeof(joined), "%s", path);
	for (tok = strtok_r(joined, "/", &save); tok && n < 512; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			n -= n > 0;
			continue;
		}
		parts[n++] = tok;
	}
	out[0] = '\0';
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(out + o, len - o, "/%s", parts[i]);
	if (n == 0)
		snprintf(out, len, "/");
}

/* /proc/PID/cmdline holds "eicbench" in its first word. */
static bool is_emulator(pid_t pid)
{
	char path[64], *text;
	bool yes = false;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	if (file_read_all(path, 1 << 16, &text, NULL) == 0) {
		yes = strstr(text, "eicbench") != NULL;
		free(text);
	}
	return yes;
}

/* Each mount line's mount point and file system type, unescaped spaces aside. */
static bool mount_line(const char *line, char *mnt, size_t mlen, char *type, size_t tlen)
{
	const char *sep = strstr(line, " - ");
	char m[PATH_MAX];

	if (!sep || sscanf(line, "%*d %*d %*s %*s %4095s", m) != 1 || sscanf(sep + 3, "%63s", type) != 1)
		return false;
	(void)tlen;
	snprintf(mnt, mlen, "%s", m);
	return true;
}

bool emulate_is_mounted(const char *mount)
{
	char *text, mnt[PATH_MAX], type[64];
	bool yes = false;

	if (file_read_all("/proc/self/mountinfo", 0, &text, NULL) < 0)
		return false;
	for (char *line = text; line && *line && !yes; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		yes = mount_line(line, mnt, sizeof(mnt), type, sizeof(type)) && !strcmp(mnt, mount) &&
		      !strcmp(type, EMULATE_FSTYPE);
	free(text);
	return yes;
}

int emulate_state_read(const char *mount, struct emulate_state *st, char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	json_error_t je;

	memset(st, 0, sizeof(*st));
	emulate_abspath(mount, st->mount, sizeof(st->mount));
	emulate_state_path(st->mount, path, sizeof(path));
	st->mounted = emulate_is_mounted(st->mount);
	if (access(path, F_OK) < 0)
		return errmsg_set(err, errlen, -ENOENT, "no emulated device was started at '%s' (there is no %s)",
				  mount, path);
	if (!(st->json = json_load_file(path, 0, &je)))
		return errmsg_set(err, errlen, -EINVAL, "%s cannot be read: %s", path, je.text);
	st->pid = (pid_t)json_integer_value(json_object_get(st->json, "pid"));
	st->alive = st->pid > 0 && kill(st->pid, 0) == 0 && is_emulator(st->pid) &&
		    strcmp(json_string_value(json_object_get(st->json, "state")) ?: "", "running") == 0;
	return 0;
}

void emulate_state_free(struct emulate_state *st)
{
	json_decref(st->json);
	st->json = NULL;
}

int emulate_stop(const struct emulate_state *st, double timeout_s)
{
	double until = clock_now_s() + timeout_s;

	if (kill(st->pid, SIGTERM) < 0)
		return -errno;
	while (kill(st->pid, 0) == 0 && is_emulator(st->pid)) {
		if (clock_now_s() > until)
			return -ETIMEDOUT;
		clock_sleep_ms(20);
	}
	return 0;
}

/* The longest mount point holding PATH (textually) into OUT. */
static void mount_of(const char *path, char *out, size_t len)
{
	char *text, mnt[PATH_MAX], type[64];
	size_t best = 0;

	snprintf(out, len, "/");
	if (file_read_all("/proc/self/mountinfo", 0, &text, NULL) < 0)
		return;
	for (char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		size_t n;

		if (!mount_line(line, mnt, sizeof(mnt), type, sizeof(type)))
			continue;
		n = strlen(mnt);
		if (n > best && !strncmp(path, mnt, n) && (path[n] == '/' || path[n] == '\0')) {
			best = n;
			snprintf(out, len, "%s", mnt);
		}
	}
	free(text);
}

/* "eicbench device emulate ..." as the state file recorded it, or "". */
static void restart_words(const char *mount, char *out, size_t len)
{
	struct emulate_state st;
	char e[256];
	const char *cmd;

	out[0] = '\0';
	if (emulate_state_read(mount, &st, e, sizeof(e)) == 0 &&
	    (cmd = json_string_value(json_object_get(st.json, "command_line"))) != NULL)
		snprintf(out, len, ", then start it again (%s)", cmd);
	emulate_state_free(&st);
}

int emulate_check_reachable(const char *what, const char *path, char *err, size_t errlen)
{
	char abs[PATH_MAX], mnt[PATH_MAX], again[2048];
	struct statvfs sv;

	/* statfs always asks the file system's server; stat may be answered
	 * from the kernel's attribute cache for seconds after it died */
	if (statvfs(path, &sv) == 0 || errno != ENOTCONN)
		return 0;
	emulate_abspath(path, abs, sizeof(abs));
	mount_of(abs, mnt, sizeof(mnt));
	restart_words(mnt, again, sizeof(again));
	return errmsg_set(err, errlen, -ENOTCONN,
			  "%s '%s': the file system mounted at %s is gone (its server, the emulator, stopped without unmounting it: %s). Clean it with: fusermount3 -u %s%s; the files are safe in its backing folder",
			  what, path, mnt, strerror(ENOTCONN), mnt, again);
}
