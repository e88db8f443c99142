/*
 * serverinfo: the facts about a running server that records and
 * `server status` carry: server_version(_num), data_checksums, block_size,
 * and on 18 the asynchronous I/O settings (io_method, io_workers,
 * io_combine_limit, io_max_combine_limit, io_max_concurrency). A setting
 * the server does not have is absent from the object, never guessed.
 */
#ifndef BENCH_PG_SERVERINFO_H
#define BENCH_PG_SERVERINFO_H

#include <stddef.h>

#include <jansson.h>
#include <libpq-fe.h>

/*
 * One JSON object, {"server_version_num": 180006, "data_checksums": true,
 * "io_method": "worker", "io_workers": 3, "io_combine_limit": "128kB", ...},
 * or NULL with ERR filled. The caller owns the reference.
 */
json_t *serverinfo_read(PGconn *c, char *err, size_t errlen);

/*
 * A setting as JSON, from pg_settings' VARTYPE and UNIT and the SHOWN value
 * (current_setting): bool → true/false, integer without a unit → a number,
 * anything else (sizes with their unit, enums, strings) → the shown text.
 */
json_t *serverinfo_value(const char *vartype, const char *unit, const char *shown);

#endif
