-- Where the data set lives: each relation's tablespace and its folder (''
-- for one in the data directory), for test and both indexes.
SELECT c.relname::text, t.spcname::text, pg_tablespace_location(t.oid)
  FROM pg_class c
  JOIN pg_tablespace t
    ON t.oid = COALESCE(NULLIF(c.reltablespace, 0),
                        (SELECT dattablespace FROM pg_database
                          WHERE datname = current_database()))
 WHERE c.oid IN (to_regclass('public.test'), to_regclass('public.test_pkey'),
                 to_regclass('public.minor_idx'))
 ORDER BY c.relname;
