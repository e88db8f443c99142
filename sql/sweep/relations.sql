-- The cold query's relations as a resumed sweep must find them: file node
-- and size (a reload or a VACUUM FULL changes them).
SELECT c.relname, pg_relation_filenode(c.oid)::text, pg_relation_size(c.oid)::text
  FROM pg_class c
 WHERE c.relname IN ('test', 'test_pkey', 'minor_idx')
   AND c.relnamespace = 'public'::regnamespace
 ORDER BY c.relname;
