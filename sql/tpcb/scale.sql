SELECT count(*) FROM pgbench_branches;
