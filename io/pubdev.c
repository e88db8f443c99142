/*
 * pubdev: a published device, from its mount's SYSSTAT_PUBLISHED_DIR; see
 * pubdev.h.
 */
#include "io/pubdev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/file.h"

/* Mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(const char *s, size_t n, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < len; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3') {
			out[o++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		} else
			out[o++] = s[i];
	}
	out[o] = '\0';
}

int pubdev_mount_parse(const char *text, unsigned maj, unsigned min, char *out, size_t len)
{
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned a, b;
		int root_at = 0, root_end = 0, mnt_at = 0, mnt_end = 0;

		if (sscanf(line, "%*d %*d %u:%u %n%*s%n %n%*s%n", &a, &b, &root_at, &root_end,
			   &mnt_at, &mnt_end) < 2 || a != maj || b != min || !mnt_end)
			continue;
		if (root_end - root_at != 1 || line[root_at] != '/')
			continue;	/* a bind mount of a folder inside it */
		unescape(line + mnt_at, (size_t)(mnt_end - mnt_at), out, len);
		return 0;
	}
	return -ENOENT;
}

static void first_line(const char *path, char *out, size_t len)
{
	char *text;

	if (file_read_all(path, 1 << 16, &text, NULL) < 0)
		return;
	snprintf(out, len, "%.*s", (int)strcspn(text, "\n"), text);
	free(text);
}

/* The device's and its members' names from the diskstats text. */
static int device_names(const char *text, struct device_info *out)
{
	int n = 0;

	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char name[SYSSTAT_NAME_MAX];

		if (sscanf(line, "%*u %*u %63s", name) != 1)
			continue;
		if (n == 0) {
			snprintf(out->name, sizeof(out->name), "%s", name);
			snprintf(out->disk, sizeof(out->disk), "%s", name);
		} else if (out->nmembers < SYSSTAT_MAX_MEMBERS)
			snprintf(out->members[out->nmembers++], SYSSTAT_NAME_MAX, "%s", name);
		n++;
	}
	return n ? 0 : -ENODEV;
}

/* "nr_requests N" and the like, as a disk's queue settings. */
static void queue_settings(const char *path, struct device_info *out)
{
	char *text;

	if (file_read_all(path, 1 << 16, &text, NULL) < 0)
		return;
	for (char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		long v;

		if (sscanf(line, "nr_requests %ld", &v) == 1)
			out->nr_requests = v;
		else if (sscanf(line, "max_sectors_kb %ld", &v) == 1)
			out->max_sectors_kb = v;
		else if (sscanf(line, "logical_block_size %ld", &v) == 1)
			out->logical_block_size = v;
	}
	free(text);
}

int pubdev_find(unsigned maj, unsigned min, struct device_info *out)
{
	char mount[SYSSTAT_PATH_MAX - 64], path[SYSSTAT_PATH_MAX], *text;
	int rc;

	if (file_read_all("/proc/self/mountinfo", 0, &text, NULL) < 0)
		return -ENODEV;
	rc = pubdev_mount_parse(text, maj, min, mount, sizeof(mount));
	free(text);
	if (rc < 0)
		return -ENODEV;
	snprintf(out->published, sizeof(out->published), "%s/%s", mount, SYSSTAT_PUBLISHED_DIR);
	snprintf(out->stats_file, sizeof(out->stats_file), "%s/%s/diskstats", mount, SYSSTAT_PUBLISHED_DIR);
	if (file_read_all(out->stats_file, 1 << 20, &text, NULL) < 0) {
		out->published[0] = out->stats_file[0] = '\0';
		return -ENODEV;
	}
	rc = device_names(text, out);
	free(text);
	if (rc < 0)
		return rc;
	snprintf(path, sizeof(path), "%s/%s/model", mount, SYSSTAT_PUBLISHED_DIR);
	first_line(path, out->model, sizeof(out->model));
	snprintf(path, sizeof(path), "%s/%s/queue", mount, SYSSTAT_PUBLISHED_DIR);
	queue_settings(path, out);
	snprintf(out->scheduler, sizeof(out->scheduler), "none");
	out->rotational = 0;
	snprintf(path, sizeof(path), "/sys/class/bdi/%u:%u/read_ahead_kb", maj, min);
	if (file_read_all(path, 64, &text, NULL) == 0) {
		out->read_ahead_kb = strtol(text, NULL, 10);
		free(text);
	}
	return 0;
}
