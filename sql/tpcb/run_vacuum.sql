-- Before a run, as pgbench does unless -n: vacuum the small tables, empty history.
VACUUM pgbench_branches;
VACUUM pgbench_tellers;
TRUNCATE pgbench_history;
