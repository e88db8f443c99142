/*
 * record: result folders, meta.json, trials.jsonl and CSV export. Durable
 * writes follow one pattern: whole files go to a temporary name, are
 * fsync'd, renamed over the target and the directory fsync'd; records are
 * one write() of a whole line with O_APPEND, then fsync. Nothing here
 * prints; errors come back as -errno with a message in the caller's buffer.
 */
#include "bench/record.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "io/faultpoint.h"

#ifndef EICBENCH_GIT_REV
#define EICBENCH_GIT_REV "unknown"
#endif

#define SUFFIX_MAX 999          /* -2 ... -999 when a timestamp is taken */

/* ---- paths and durable files ---- */

static int join(char *out, size_t len, const char *dir, const char *file,
		char *err, size_t errlen)
{
	if ((size_t)snprintf(out, len, "%s/%s", dir, file) >= len) {
		snprintf(err, errlen, "path too long: %s/%s", dir, file);
		return -ENAMETOOLONG;
	}
	return 0;
}

static int fail(int rc, char *err, size_t errlen, const char *what, const char *path)
{
	snprintf(err, errlen, "%s %s: %s", what, path, strerror(-rc));
	return rc;
}

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}


/* ---- whose the files are ---- */

/* As root under sudo, the user who ran sudo (SUDO_UID, SUDO_GID): results
 * are theirs, so that a later report without root can read and remove
 * them. 0 with the ids, else -1 (files stay the process's). */
static int invoker(uid_t *uid, gid_t *gid)
{
	const char *u = getenv("SUDO_UID"), *g = getenv("SUDO_GID");
	char *end;
	unsigned long a, b;

	if (geteuid() != 0 || !u || !g || !*u || !*g)
		return -1;
	errno = 0;
	a = strtoul(u, &end, 10);
	if (*end || errno || a == 0 || a > 0x7fffffffUL)
		return -1;
	b = strtoul(g, &end, 10);
	if (*end || errno || b > 0x7fffffffUL)
		return -1;
	*uid = (uid_t)a;
	*gid = (gid_t)b;
	return 0;
}

static void give_fd(int fd)
{
	uid_t u;
	gid_t g;

	if (invoker(&u, &g) == 0)
		(void)!fchown(fd, u, g);
}

static void give_path(const char *path)
{
	uid_t u;
	gid_t g;

	if (invoker(&u, &g) == 0)
		(void)!lchown(path, u, g);
}

int record_settle_owner(const char *dir)
{
	uid_t u;
	gid_t g;
	DIR *d;
	struct dirent *e;

	if (invoker(&u, &g) < 0)
		return 0;
	if (!(d = opendir(dir)))
		return -errno;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			(void)!fchownat(dirfd(d), e->d_name, u, g, AT_SYMLINK_NOFOLLOW);
	closedir(d);
	return 0;
}

/*
 * Written relative to the folder's descriptor: the temporary file is made
 * with O_EXCL | O_NOFOLLOW (a link planted under its name is refused, never
 * followed) and renamed over the name, so a folder another user owns (the
 * cluster's, as root) cannot redirect the write.
 */
int record_write_file_atomic(const char *path, const void *data, size_t len,
			     char *err, size_t errlen)
{
	char dir[PATH_MAX], tmp[NAME_MAX + 1];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	int dfd, fd, rc = 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if ((size_t)(slash - path) >= sizeof(dir) || strlen(base) + 24 > NAME_MAX)
		return fail(-ENAMETOOLONG, err, errlen, "cannot write", path);
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	snprintf(tmp, sizeof(tmp), ".%s.tmp.%ld", base, (long)getpid());
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return fail(-errno, err, errlen, "cannot write", path);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		rc = -errno;
	else
		give_fd(fd);
	if (rc == 0)
		rc = write_all(fd, data, len);
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (fd >= 0 && close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && renameat(dfd, tmp, dfd, base) < 0)
		rc = -errno;
	if (rc < 0 && fd >= 0)
		unlinkat(dfd, tmp, 0);
	if (rc == 0 && fsync(dfd) < 0)
		rc = -errno;
	close(dfd);
	return rc < 0 ? fail(rc, err, errlen, "cannot write", path) : 0;
}

/* ---- result folders ---- */

/* mkdir -p PATH (0755). 0 or -errno. */
static int make_dirs(const char *path)
{
	char buf[PATH_MAX];

	if ((size_t)snprintf(buf, sizeof(buf), "%s", path) >= sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(buf, 0755) == 0)
			give_path(buf);
		else if (errno != EEXIST)
			return -errno;
		*p = c;
		if (c == '\0')
			return 0;
	}
}

static int dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return -errno;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
		    strcmp(e->d_name, RECORD_LOCK) != 0) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

static bool command_ok(const char *command)
{
	size_t n = command ? strlen(command) : 0;

	if (n == 0 || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)command[i]) && command[i] != '-' && command[i] != '_')
			return false;
	return true;
}

static int use_explicit(const char *out, char *path_out, size_t len,
			char *err, size_t errlen)
{
	int rc = make_dirs(out);

	if (rc < 0)
		return fail(rc, err, errlen, "cannot create", out);
	rc = dir_is_empty(out);
	if (rc < 0)
		return fail(rc, err, errlen, "cannot read", out);
	if (rc == 0) {
		snprintf(err, errlen, "%s is not empty; results are never overwritten: name a new or empty folder", out);
		return -EEXIST;
	}
	if ((size_t)snprintf(path_out, len, "%s", out) >= len)
		return fail(-ENAMETOOLONG, err, errlen, "cannot use", out);
	return 0;
}

/* PARENT/STAMP-COMMAND[-K]; 0 made, 1 taken, -errno. */
static int try_dir(const char *parent, const char *stamp, const char *command,
		   int k, char *path, size_t len)
{
	int n = k == 1 ? snprintf(path, len, "%s/%s-%s", parent, stamp, command)
		       : snprintf(path, len, "%s/%s-%s-%d", parent, stamp, command, k);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	if (mkdir(path, 0755) == 0) {
		give_path(path);
		return 0;
	}
	return errno == EEXIST ? 1 : -errno;
}

static int make_stamped(const char *parent, const char *command, time_t when,
			char *path_out, size_t len, char *err, size_t errlen)
{
	char stamp[32];
	struct tm tm;
	int rc = make_dirs(parent);

	if (rc < 0)
		return fail(rc, err, errlen, "cannot create", parent);
	gmtime_r(&when, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	for (int k = 1; k <= SUFFIX_MAX; k++) {
		rc = try_dir(parent, stamp, command, k, path_out, len);
		if (rc == 0)
			return fsync_dir(parent) < 0 ? fail(-errno, err, errlen, "cannot sync", parent) : 0;
		if (rc < 0)
			return fail(rc, err, errlen, "cannot create a result folder in", parent);
	}
	snprintf(err, errlen, "%s: %d result folders named %s-%s already", parent, SUFFIX_MAX, stamp, command);
	return -EEXIST;
}

int record_dir_create_at(const char *parent, const char *command,
			 const char *explicit_out, time_t when,
			 char *path_out, size_t len, char *err, size_t errlen)
{
	if (!command_ok(command)) {
		snprintf(err, errlen, "command name '%s' is not allowed in a folder name; use letters, digits, '-' and '_'",
			 command ? command : "");
		return -EINVAL;
	}
	if (explicit_out && *explicit_out)
		return use_explicit(explicit_out, path_out, len, err, errlen);
	return make_stamped(parent ? parent : RECORD_PARENT, command, when,
			    path_out, len, err, errlen);
}

int record_dir_create(const char *parent, const char *command,
		      const char *explicit_out, char *path_out, size_t len,
		      char *err, size_t errlen)
{
	return record_dir_create_at(parent, command, explicit_out, time(NULL),
				    path_out, len, err, errlen);
}

/* ---- meta.json ---- */

int record_write_rendered(const char *path, int (*render)(const void *arg, FILE *f),
			  const void *arg, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return snprintf(err, errlen, "%s: out of memory while rendering", path), -ENOMEM;
	ret = render(arg, f);
	if (fclose(f) != 0 && ret == 0)
		ret = -ENOMEM;
	if (ret == 0)
		ret = record_write_file_atomic(path, buf, len, err, errlen);
	else
		snprintf(err, errlen, "%s: cannot render it (%s)", path, strerror(-ret));
	free(buf);
	return ret;
}

int record_meta_write(const char *dir, const json_t *meta, char *err, size_t errlen)
{
	char path[PATH_MAX];
	char *text;
	int rc = join(path, sizeof(path), dir, RECORD_META, err, errlen);

	if (rc < 0)
		return rc;
	text = json_dumps(meta, JSON_INDENT(2));
	if (!text) {
		snprintf(err, errlen, "cannot render %s", path);
		return -ENOMEM;
	}
	rc = record_write_file_atomic(path, text, strlen(text), err, errlen);
	free(text);
	return rc;
}

/* The first "model name" of /proc/cpuinfo, or "unknown". */
static void cpu_model(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(out, len, "unknown");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) != 0 || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(out, len, "%s", colon);
		break;
	}
	if (f)
		fclose(f);
}

static json_t *host_json(void)
{
	char name[256] = "unknown", model[256];
	struct utsname u;
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	gethostname(name, sizeof(name) - 1);
	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	cpu_model(model, sizeof(model));
	return json_pack("{s:s, s:{s:s, s:s, s:s, s:s}, s:s, s:I, s:I}",
			 "hostname", name,
			 "kernel", "sysname", u.sysname, "release", u.release,
			 "version", u.version, "machine", u.machine,
			 "cpu_model", model,
			 "cpu_count", (json_int_t)sysconf(_SC_NPROCESSORS_ONLN),
			 "memory_bytes", (json_int_t)pages * (json_int_t)page);
}

static json_t *argv_json(int argc, char *const argv[])
{
	json_t *a = json_array();

	for (int i = 0; a && i < argc; i++) {
		char *r = record_redact_arg(argv[i]);

		if (!r || json_array_append_new(a, json_string(r)) < 0) {
			free(r);
			json_decref(a);
			return NULL;
		}
		free(r);
	}
	return a;
}

void record_utc_iso(time_t when, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&when, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

json_t *record_disk_json(const char *device, const struct disk_delta *d)
{
	return json_pack("{s:s, s:f, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f}",
			 "device", device, "elapsed_s", d->elapsed_s,
			 "reads", (json_int_t)d->reads, "reads_merged", (json_int_t)d->reads_merged,
			 "read_bytes", (json_int_t)d->read_bytes, "writes", (json_int_t)d->writes,
			 "write_bytes", (json_int_t)d->write_bytes, "avg_read_kib", d->avg_read_kib,
			 "avg_queue_depth", d->avg_queue_depth, "util_pct", d->util_pct,
			 "read_await_ms", d->read_await_ms);
}

int record_meta_host(json_t *meta, int argc, char *const argv[], time_t started)
{
	char stamp[32];
	int rc = 0;

	record_utc_iso(started, stamp, sizeof(stamp));
	rc |= json_object_set_new(meta, "host", host_json());
	rc |= json_object_set_new(meta, "git_rev", json_string(EICBENCH_GIT_REV));
	rc |= json_object_set_new(meta, "command_line", argv_json(argc, argv));
	rc |= json_object_set_new(meta, "started_utc", json_string(stamp));
	return rc ? -ENOMEM : 0;
}

static json_t *str_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

static json_t *long_or_null(long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

json_t *record_device_json(const struct device_info *d)
{
	json_t *members = json_array();

	for (int i = 0; i < d->nmembers; i++)
		json_array_append_new(members, json_string(d->members[i]));
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "name", str_or_null(d->name),
			 "disk", str_or_null(d->disk),
			 "model", str_or_null(d->model),
			 "scheduler", str_or_null(d->scheduler),
			 "rotational", d->rotational < 0 ? json_null() : json_boolean(d->rotational),
			 "nr_requests", long_or_null(d->nr_requests),
			 "read_ahead_kb", long_or_null(d->read_ahead_kb),
			 "max_sectors_kb", long_or_null(d->max_sectors_kb),
			 "logical_block_size", long_or_null(d->logical_block_size),
			 "fstype", str_or_null(d->fstype),
			 "members", members);
}

/* ---- trials.jsonl ---- */

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
	int fd, rc = join(path, sizeof(path), dir, file, err, errlen);

	if (rc < 0)
		return rc;
	if (!json_is_object(obj) || !(line = render_line(obj, &len))) {
		snprintf(err, errlen, "%s: a record must be a JSON object", path);
		return -EINVAL;
	}
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0)
		give_fd(fd);
	rc = fd < 0 ? -errno : cut_torn_tail(fd);
	if (rc == 0)
		rc = append_line(fd, line, len);
	if (fd >= 0 && close(fd) < 0 && rc == 0)
		rc = -errno;
	free(line);
	if (rc == 0)
		rc = fsync_dir(dir);
	return rc < 0 ? fail(rc, err, errlen, "cannot append to", path) : 0;
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
	if (rc == 0 && ferror(f))
		rc = fail(-EIO, err, errlen, "cannot read", path);
	free(line);
	return rc;
}

int record_load(const char *dir, const char *file, json_t **array_out,
		int *torn_out, char *err, size_t errlen)
{
	char path[PATH_MAX];
	FILE *f;
	json_t *array;
	int torn = 0, rc = join(path, sizeof(path), dir, file, err, errlen);

	*array_out = NULL;
	if (rc < 0)
		return rc;
	f = fopen(path, "re");
	if (!f)
		return fail(-errno, err, errlen, "cannot open", path);
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

/* ---- resume ---- */

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

/* ---- CSV ---- */

/* KEY, or when absent a dotted path "a.b.c" through nested objects. */
static const json_t *lookup(const json_t *row, const char *key)
{
	const json_t *v = json_object_get(row, key);
	char part[256];

	while (!v && json_is_object(row)) {
		size_t n = strcspn(key, ".");

		if (key[n] != '.' || n >= sizeof(part))
			return NULL;
		memcpy(part, key, n);
		part[n] = '\0';
		row = json_object_get(row, part);
		key += n + 1;
		v = json_object_get(row, key);
	}
	return v;
}

static void put_field(FILE *out, const char *s)
{
	size_t n = strlen(s);
	bool quote = strpbrk(s, ",\"\r\n") != NULL ||
		     (n > 0 && (isspace((unsigned char)s[0]) || isspace((unsigned char)s[n - 1])));

	if (!quote) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* A real in the fewest significant digits that read back exactly. */
static void put_real(FILE *out, double v)
{
	char buf[64];

	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, out);
}

static void put_value(FILE *out, const json_t *v)
{
	char *text;

	switch (json_typeof(v)) {
	case JSON_STRING:
		put_field(out, json_string_value(v));
		break;
	case JSON_INTEGER:
		fprintf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		put_real(out, json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		fputs(json_is_true(v) ? "true" : "false", out);
		break;
	case JSON_OBJECT:
	case JSON_ARRAY:
		text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		put_field(out, text ? text : "");
		free(text);
		break;
	default:                /* null */
		break;
	}
}

static void put_csv(FILE *out, const json_t *rows, const char *const *columns,
		    size_t ncolumns)
{
	size_t i;
	const json_t *row;

	for (size_t c = 0; c < ncolumns; c++) {
		fputs(c ? "," : "", out);
		put_field(out, columns[c]);
	}
	fputc('\n', out);
	json_array_foreach(rows, i, row) {
		for (size_t c = 0; c < ncolumns; c++) {
			const json_t *v = lookup(row, columns[c]);

			fputs(c ? "," : "", out);
			if (v)
				put_value(out, v);
		}
		fputc('\n', out);
	}
}

int record_write_csv(const char *path, const json_t *rows,
		     const char *const *columns, size_t ncolumns,
		     char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int rc;

	if (!json_is_array(rows) || ncolumns == 0) {
		snprintf(err, errlen, "%s: need an array of rows and at least one column", path);
		return -EINVAL;
	}
	out = open_memstream(&buf, &len);
	if (!out)
		return fail(-errno, err, errlen, "cannot render", path);
	put_csv(out, rows, columns, ncolumns);
	if (fclose(out) != 0) {
		free(buf);
		return fail(-ENOMEM, err, errlen, "cannot render", path);
	}
	rc = record_write_file_atomic(path, buf, len, err, errlen);
	free(buf);
	return rc;
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
