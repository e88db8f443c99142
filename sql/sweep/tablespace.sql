-- The tablespace of relation $1, the effective_io_concurrency it sets for
-- itself (NULL: none, the session's value applies) and its folder ('' for
-- one in the data directory). A relation in the database's default
-- tablespace has reltablespace 0.
SELECT t.spcname,
       (SELECT split_part(o, '=', 2) FROM unnest(t.spcoptions) AS o
         WHERE o LIKE 'effective\_io\_concurrency=%'),
       pg_tablespace_location(t.oid)
  FROM pg_class c
  JOIN pg_tablespace t
    ON t.oid = COALESCE(NULLIF(c.reltablespace, 0),
                        (SELECT dattablespace FROM pg_database
                          WHERE datname = current_database()))
 WHERE c.oid = to_regclass($1);
