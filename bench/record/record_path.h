/*
 * record_path: a record's fields by path, for every reader of records (the
 * judge, export, the workloads' progress lines). A missing field, or one of
 * another type, is NAN or NULL: records from older versions lack fields.
 */
#ifndef BENCH_RECORD_RECORD_PATH_H
#define BENCH_RECORD_RECORD_PATH_H

#include <jansson.h>

/* The field at dotted PATH ("plan.racing.weights") in OBJ, or NULL. */
const json_t *record_at(const json_t *obj, const char *path);
/* The number at dotted PATH ("disk.avg_read_kib") in OBJ, or NAN. */
double record_num_at(const json_t *obj, const char *path);
/* The string OBJ.A (or OBJ.A.B when B), or NULL. */
const char *record_str_at(const json_t *obj, const char *a, const char *b);

#endif
