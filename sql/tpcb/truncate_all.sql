-- -I g without t: every table emptied in the transaction that fills it
-- (so COPY ... FREEZE may; foreign keys allow it in one statement).
TRUNCATE TABLE pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history;
