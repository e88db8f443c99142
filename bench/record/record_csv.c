/*
 * record_csv: rows of JSON objects as a CSV file with a header, replaced
 * atomically (record_write_file_atomic). A dotted column reaches into
 * nested objects; integers as integers, reals in the fewest digits that
 * read back exactly; a field is quoted only when it must be.
 */
#include "bench/record/record_priv.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		return record_fail(-errno, err, errlen, "cannot render", path);
	put_csv(out, rows, columns, ncolumns);
	if (fclose(out) != 0) {
		free(buf);
		return record_fail(-ENOMEM, err, errlen, "cannot render", path);
	}
	rc = record_write_file_atomic(path, buf, len, err, errlen);
	free(buf);
	return rc;
}
