/*
 * record: trials.jsonl and the readers of result folders. A record is one
 * write() of a whole JSON line with O_APPEND, then fsync; a torn last line
 * left by a crash is cut before the next append and skipped (and said) by
 * a reader. Resume asks which planned keys are recorded already. Nothing
 * here prints; errors come back as -errno with a message in the caller's
 * buffer.
 */
#include "bench/record/record_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/faultpoint.h"

/* Offset just past the last '\n' before END, or 0. -errno on error. */
static off_t last_line_end(int fd, off_t end)
{
	char buf[4096];

	while (end > 0) {
		size_t n = end < (off_t)sizeof(buf) ? (size_t)end : sizeof(buf);
		ssize_t got = pread(fd, buf, n, end - (off_t)n);

		if (got != (ssize_t)n)
			return got < 0 ? -errno : -EIO;
		for (size_t i = n; i > 0; i--)
			if (buf[i - 1] == '\n')
				return end - (off_t)n + (off_t)i;
		end -= (off_t)n;
	}
	return 0;
}

/* Cut a torn last line (no newline) so the next line starts clean. */
static int cut_torn_tail(int fd)
{
	off_t size = lseek(fd, 0, SEEK_END);
	off_t keep;
	char last;

	if (size <= 0)
		return size < 0 ? -errno : 0;
	if (pread(fd, &last, 1, size - 1) != 1)
		return -EIO;
	if (last == '\n')
		return 0;
	keep = last_line_end(fd, size);
	if (keep < 0)
		return (int)keep;
	return ftruncate(fd, keep) < 0 ? -errno : 0;
}

/* One write() of the whole line at the end, then fsync. A line that could
 * not be written whole (the disk is full) or synced is taken back, so a
 * failed append leaves the file as it was. */
static int append_line(int fd, const char *line, size_t len)
{
	off_t was = lseek(fd, 0, SEEK_END);
	ssize_t n;
	int ret;

	if (was < 0)
		return -errno;
	n = write(fd, line, len);
	if (n < 0)
		return -errno;
	ret = (size_t)n == len ? 0 : -ENOSPC;	/* a short write to a file: the disk is full */
	if (ret == 0) {
		faultpoint("record:append");	/* written, not yet synced */
		if (fsync(fd) < 0)
			ret = -errno;
	}
	if (ret < 0 && ftruncate(fd, was) == 0)
		(void)!fsync(fd);
	return ret;
}

static char *render_line(const json_t *obj, size_t *len)
{
	char *text = json_dumps(obj, JSON_COMPACT);
	char *line;

	if (!text)
		return NULL;
	*len = strlen(text) + 1;
	line = realloc(text, *len + 1);
	if (!line) {
		free(text);
		return NULL;
	}
	line[*len - 1] = '\n';
	line[*len] = '\0';
	return line;
}

int record_append(const char *dir, const char *file, const json_t *obj,
		  char *err, size_t errlen)
{
	char path[PATH_MAX];
	size_t len;
	char *line;
	int fd, rc = record_join(path, sizeof(path), dir, file, err, errlen);

	if (rc < 0)
		return rc;
	if (!json_is_object(obj) || !(line = render_line(obj, &len))) {
		snprintf(err, errlen, "%s: a record must be a JSON object", path);
		return -EINVAL;
	}
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0)
		record_give_fd(fd);
	rc = fd < 0 ? -errno : cut_torn_tail(fd);
	if (rc == 0)
		rc = append_line(fd, line, len);
	if (fd >= 0 && close(fd) < 0 && rc == 0)
		rc = -errno;
	free(line);
	if (rc == 0)
		rc = record_fsync_dir(dir);
	return rc < 0 ? record_fail(rc, err, errlen, "cannot append to", path) : 0;
}

static bool blank(const char *s)
{
	return s[strspn(s, " \t\r\n")] == '\0';
}

/* Parse one whole line into ARRAY. LINENO counts from 1. */
static int load_line(const char *path, size_t lineno, const char *line,
		     json_t *array, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *obj;

	if (blank(line))
		return 0;
	obj = json_loads(line, JSON_REJECT_DUPLICATES, &jerr);
	if (!obj) {
		snprintf(err, errlen, "%s line %zu: not valid JSON (column %d): %s",
			 path, lineno, jerr.column, jerr.text);
		return -EINVAL;
	}
	if (!json_is_object(obj)) {
		json_decref(obj);
		snprintf(err, errlen, "%s line %zu: a record must be a JSON object", path, lineno);
		return -EINVAL;
	}
	return json_array_append_new(array, obj) < 0 ? -ENOMEM : 0;
}

static int load_stream(FILE *f, const char *path, json_t *array, int *torn,
		       char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t n;
	int rc = 0;

	while (rc == 0 && (n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[n - 1] != '\n') {
			*torn = 1;
			snprintf(err, errlen, "%s line %zu: ignored a partial last line (%zd bytes) left by an interrupted write",
				 path, lineno, n);
			break;
		}
		rc = load_line(path, lineno, line, array, err, errlen);
	}
	if (rc == 0 && ferror(f))	/* records that cannot be read: the folder's fault */
		rc = (record_fail(-EIO, err, errlen, "cannot read", path), -EINVAL);
	free(line);
	return rc;
}

/*
 * PATH opened for reading into *F: a regular file, opened without blocking
 * (a FIFO planted under a record's name is refused, never waited on).
 * -ENOENT when missing; -EINVAL, said in ERR, when it cannot be read.
 */
static int open_records(const char *path, FILE **f, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), rc = 0;

	*f = NULL;
	if (fd < 0)
		return errno == ENOENT ? record_fail(-ENOENT, err, errlen, "cannot open", path) :
		       (record_fail(-errno, err, errlen, "cannot read", path), -EINVAL);
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		snprintf(err, errlen, "cannot read %s: not a regular file (a FIFO, device, socket or folder is not read); give a result folder whose records are files",
			 path), rc = -EINVAL;
	else if (!(*f = fdopen(fd, "re")))
		rc = -errno;
	if (rc < 0) {
		if (rc != -EINVAL)
			record_fail(rc, err, errlen, "cannot read", path);
		close(fd);
		return -EINVAL;
	}
	return 0;
}

int record_load(const char *dir, const char *file, json_t **array_out,
		int *torn_out, char *err, size_t errlen)
{
	char path[PATH_MAX];
	FILE *f;
	json_t *array;
	int torn = 0, rc = record_join(path, sizeof(path), dir, file, err, errlen);

	*array_out = NULL;
	if (rc < 0)
		return rc;
	rc = open_records(path, &f, err, errlen);
	if (rc < 0)
		return rc;
	array = json_array();
	rc = array ? load_stream(f, path, array, &torn, err, errlen) : -ENOMEM;
	fclose(f);
	if (rc < 0) {
		json_decref(array);
		return rc;
	}
	*array_out = array;
	if (torn_out)
		*torn_out = torn;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int record_done_keys(const json_t *records, const char *keyfield,
		     const char *const *planned, size_t nplanned, bool *done_out)
{
	size_t n = 0, i, done = 0;
	const json_t *rec;
	const char **keys;

	if (!json_is_array(records) || !keyfield)
		return -EINVAL;
	keys = malloc((json_array_size(records) + 1) * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	json_array_foreach(records, i, rec) {
		const char *k = json_string_value(json_object_get(rec, keyfield));

		if (k)
			keys[n++] = k;
	}
	qsort(keys, n, sizeof(*keys), cmp_str);
	for (i = 0; i < nplanned; i++) {
		done_out[i] = bsearch(&planned[i], keys, n, sizeof(*keys), cmp_str) != NULL;
		done += done_out[i];
	}
	free(keys);
	return (int)done;
}

int record_folder_is(const char *dir, const char *cmd)
{
	char path[PATH_MAX + 16];
	json_t *m;
	int yes;

	snprintf(path, sizeof(path), "%s/%s", dir, RECORD_META);
	m = json_load_file(path, 0, NULL);
	yes = m && !strcmp(json_string_value(json_object_get(m, "command")) ?: "", cmd);
	json_decref(m);
	return yes;
}
