VACUUM (ANALYZE) pgbench_accounts;
