-- Which of pgbench's tables exist, and the scale (branches' row count).
SELECT to_regclass('pgbench_accounts') IS NOT NULL,
       to_regclass('pgbench_branches') IS NOT NULL,
       to_regclass('pgbench_tellers') IS NOT NULL,
       to_regclass('pgbench_history') IS NOT NULL,
       current_setting('server_version');
