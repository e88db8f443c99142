/*
 * sqltext: lookup of the embedded sql/ files and a statement splitter for
 * files holding several statements (one per ';' at a line's end).
 */
#include "bench/pg/sqltext.h"

#include <string.h>

const char *sql_text(const char *name)
{
	for (const struct sql_file *f = sql_files; f->name; f++)
		if (!strcmp(f->name, name))
			return f->text;
	return NULL;
}

static int blank_or_comment(const char *line, size_t n)
{
	size_t i = 0;

	while (i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
		i++;
	return i == n || (i + 1 < n && line[i] == '-' && line[i + 1] == '-');
}

static int ends_statement(const char *line, size_t n)
{
	while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
		n--;
	return n > 0 && line[n - 1] == ';';
}

int sql_next_statement(const char *text, size_t *pos, char *buf, size_t len)
{
	const char *p = text + *pos;
	size_t used = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		int last = ends_statement(p, n);

		if (!blank_or_comment(p, n)) {
			if (used + n + 2 > len)
				return -1;
			memcpy(buf + used, p, n);
			used += n;
			buf[used++] = '\n';
			buf[used] = '\0';
		} else {
			last = 0;
		}
		p += nl ? n + 1 : n;
		if (last)
			break;
	}
	*pos = (size_t)(p - text);
	return (int)used;
}
