-- The tables of an earlier init go first (pgbench's names; eicbench's record of them).
DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers;
DELETE FROM eicbench_tpcb;
