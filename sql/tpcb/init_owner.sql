-- Is there a pgbench table at all, is eicbench's record there, and does it
-- name the pgbench_accounts that exists now? (The record is read by the next
-- query only when it exists.)
SELECT to_regclass('pgbench_accounts') IS NOT NULL OR to_regclass('pgbench_branches') IS NOT NULL
       OR to_regclass('pgbench_tellers') IS NOT NULL OR to_regclass('pgbench_history') IS NOT NULL,
       to_regclass('eicbench_tpcb') IS NOT NULL;
