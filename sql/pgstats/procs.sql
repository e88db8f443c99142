-- Processes that work for a query besides its backend: the I/O workers
-- (PostgreSQL 18, io_method = worker) and the parallel workers of the
-- leader $1 (leader_pid, PostgreSQL 13 and later). A role without
-- pg_read_all_stats sees other processes' backend_type as NULL: those rows
-- come too, so that a hidden worker is told apart from no worker.
SELECT pid, backend_type
  FROM pg_stat_activity
 WHERE backend_type = 'io worker'
    OR (leader_pid = $1::int AND pid <> $1::int)
    OR backend_type IS NULL
 ORDER BY backend_type, pid;
