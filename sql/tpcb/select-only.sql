-- pgbench's built-in "select only" (-S): one read, no transaction block.
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
