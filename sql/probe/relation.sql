-- The relation the probe replays, found by name as given ($1): its oid and
-- kind, its first segment file relative to the data directory, its size in
-- blocks, the server's block size and version. No row: no such relation.
SELECT c.oid, c.relkind, pg_relation_filepath(c.oid),
       pg_relation_size(c.oid) / current_setting('block_size')::bigint,
       current_setting('block_size')::int,
       current_setting('server_version')
FROM pg_class c
WHERE c.oid = to_regclass($1);
