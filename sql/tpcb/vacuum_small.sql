VACUUM (ANALYZE) pgbench_branches;
VACUUM (ANALYZE) pgbench_tellers;
VACUUM (ANALYZE) pgbench_history;
