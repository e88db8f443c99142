-- Before a run with -v, as pgbench does: accounts vacuumed and analyzed too.
VACUUM ANALYZE pgbench_accounts;
