/*
 * record_path: figures and strings at a path in a record; see record_path.h.
 */
#include <math.h>
#include <string.h>

#include "bench/record/record_path.h"

const json_t *record_at(const json_t *obj, const char *path)
{
	char part[64];

	while (json_is_object(obj)) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = '\0';
		obj = json_object_get(obj, part);
		if (path[n] != '.')
			return obj;
		path += n + 1;
	}
	return NULL;
}

double record_num_at(const json_t *obj, const char *path)
{
	const json_t *v = record_at(obj, path);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *record_str_at(const json_t *obj, const char *a, const char *b)
{
	const json_t *v = json_object_get(obj, a);

	if (b)
		v = json_object_get(v, b);
	return json_string_value(v);
}
