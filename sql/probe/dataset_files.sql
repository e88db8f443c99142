-- The files of a data set for the cache check: the table named $1 and each of
-- its indexes, with the first segment file relative to the data directory,
-- and the server's block size. No row: no such table.
SELECT c.relname::text, pg_relation_filepath(c.oid),
       current_setting('block_size')::int
FROM pg_class c
WHERE c.oid = to_regclass($1)
   OR c.oid IN (SELECT i.indexrelid FROM pg_index i WHERE i.indrelid = to_regclass($1))
ORDER BY c.oid;
