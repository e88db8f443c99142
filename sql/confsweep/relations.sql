-- pgbench's tables as a resumed configuration sweep must find them: their
-- file nodes (made again by an init). Not their sizes, which every run of
-- the workload changes, nor pgbench_history, which each run truncates.
SELECT c.relname, pg_relation_filenode(c.oid)::text, ''
  FROM pg_class c
 WHERE c.relname IN ('pgbench_accounts', 'pgbench_branches', 'pgbench_tellers')
   AND c.relkind = 'r'
   AND c.relnamespace = 'public'::regnamespace
 ORDER BY c.relname;
