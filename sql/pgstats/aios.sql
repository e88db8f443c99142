-- The I/O handles in use (PostgreSQL 18), all of them or only those of the
-- backend $1 and of its parallel workers.
SELECT a.pid, a.state, a.operation, a.length
  FROM pg_aios a
 WHERE $1::int IS NULL
    OR a.pid = $1::int
    OR a.pid IN (SELECT s.pid FROM pg_stat_activity s WHERE s.leader_pid = $1::int);
