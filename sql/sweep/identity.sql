-- What a resumed sweep must find the same: the server (its system identifier,
-- first row) and the data set's relations (file node and size).
SELECT k, a, b FROM (
  SELECT 0 AS o, 'server' AS k, system_identifier::text AS a, '' AS b FROM pg_control_system()
  UNION ALL
  SELECT 1, c.relname, pg_relation_filenode(c.oid)::text, pg_relation_size(c.oid)::text
    FROM pg_class c
   WHERE c.relname IN ('test', 'test_pkey', 'minor_idx')
     AND c.relnamespace = 'public'::regnamespace
) s ORDER BY o, k;
