-- The relation the probe replays, found by name as given ($1): its oid and
-- kind, its first segment file relative to the data directory, its size in
-- blocks, the server's block size and version, and its tuples per page as
-- the last ANALYZE or VACUUM counted them (0 when never counted). No row: no
-- such relation.
SELECT c.oid, c.relkind, pg_relation_filepath(c.oid),
       pg_relation_size(c.oid) / current_setting('block_size')::bigint,
       current_setting('block_size')::int,
       current_setting('server_version'),
       CASE WHEN c.relpages > 0 AND c.reltuples > 0 THEN c.reltuples / c.relpages ELSE 0 END
FROM pg_class c
WHERE c.oid = to_regclass($1);
