-- How pgbench_accounts (the one the search path finds) is partitioned:
-- its strategy ('r' range, 'h' hash, '' none) and its partitions' count.
SELECT coalesce(p.partstrat::text, ''), count(i.inhrelid)
  FROM pg_class c
  LEFT JOIN pg_partitioned_table p ON p.partrelid = c.oid
  LEFT JOIN pg_inherits i ON i.inhparent = c.oid
 WHERE c.oid = to_regclass('pgbench_accounts')
 GROUP BY p.partstrat;
