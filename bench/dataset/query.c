/*
 * query: presets from sql/query/, or one SELECT from a file; see query.h.
 */
#include "bench/dataset/query.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench/pg/sqltext.h"
#include "io/file.h"

static const char *const presets[] = { "blog", "sparse", NULL };

int query_is_preset(const char *spec)
{
	for (const char *const *p = presets; *p; p++)
		if (!strcmp(spec, *p))
			return 1;
	return 0;
}

/* TEXT past blank lines and "--" comment lines. */
static const char *skip_comments(const char *text)
{
	for (;;) {
		text += strspn(text, " \t\r\n");
		if (strncmp(text, "--", 2))
			return text;
		text += strcspn(text, "\n");
	}
}

/* Does the word KW (any case) start P, followed by a blank or '('? */
static bool word(const char *p, const char *kw)
{
	size_t n = strlen(kw);

	return !strncasecmp(p, kw, n) && (p[n] == '\0' || strchr(" \t\r\n(", p[n]));
}

static int read_file(const char *spec, char **text, char *err, size_t errlen)
{
	int rc = file_read_all(spec, QUERY_MAX_BYTES, text, NULL);

	if (rc == -ENOMEM)
		return rc;
	if (rc < 0)
		snprintf(err, errlen, "--query '%s': not a preset (blog, sparse) and not a readable file of at most 1 MiB (%s)",
			 spec, rc == -EFBIG ? "it is larger" : file_strerror(rc));
	return rc < 0 ? -EINVAL : 0;
}

/* Drop trailing blanks and semicolons; then check it is one SELECT. */
static int check_text(const char *spec, char *text, char *err, size_t errlen)
{
	size_t len = strlen(text);
	const char *start;

	while (len > 0 && strchr(" \t\r\n;", text[len - 1]))
		text[--len] = '\0';
	start = skip_comments(text);
	if (*start == '\0') {
		snprintf(err, errlen, "--query '%s': the file holds no query; give one SELECT statement", spec);
		return -EINVAL;
	}
	if (!word(start, "select") && !word(start, "with")) {
		snprintf(err, errlen, "--query '%s': the query must be a SELECT (or WITH ... SELECT); trials run it with EXPLAIN ANALYZE, which would execute anything else",
			 spec);
		return -EINVAL;
	}
	if (strchr(text, ';')) {
		snprintf(err, errlen, "--query '%s': the file holds more than one statement; give one SELECT statement", spec);
		return -EINVAL;
	}
	return 0;
}

int query_load(const char *spec, struct query *q, char *err, size_t errlen)
{
	char name[QUERY_NAME_MAX + 16];
	int rc;

	memset(q, 0, sizeof(*q));
	if (query_is_preset(spec)) {
		snprintf(name, sizeof(name), "query/%s.sql", spec);
		if (!sql_text(name)) {
			snprintf(err, errlen, "no SQL file sql/%s in this build", name);
			return -EINVAL;
		}
		snprintf(q->name, sizeof(q->name), "%s", spec);
		q->text = strdup(sql_text(name));
		rc = q->text ? 0 : -ENOMEM;
	} else {
		snprintf(q->name, sizeof(q->name), "file");
		rc = read_file(spec, &q->text, err, errlen);
	}
	if (rc == 0)
		rc = check_text(spec, q->text, err, errlen);
	if (rc < 0)
		query_free(q);
	return rc;
}

void query_free(struct query *q)
{
	free(q->text);
	q->text = NULL;
}
