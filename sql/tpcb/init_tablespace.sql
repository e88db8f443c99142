-- Tablespace $1, given to init: does it exist, may this user create in it
-- (the database's own and pg_default need no grant), and is it pg_global
-- (shared relations only)? Asked before any step drops anything.
SELECT count(*) > 0,
       coalesce(bool_or(t.oid = d.dattablespace OR t.spcname = 'pg_default'
                        OR has_tablespace_privilege(t.oid, 'CREATE')), false),
       coalesce(bool_or(t.spcname = 'pg_global'), false)
  FROM pg_tablespace t, pg_database d
 WHERE t.spcname = $1 AND d.datname = current_database();
