-- custom-script.sql: a read-mostly account workload with hot keys, the kind
-- a DBA brings from production: a zipfian-skewed account read, and one time
-- in five an update of it and a history row, inside a transaction.
\set aid random_zipfian(1, 100000 * :scale, 1.1)
\set delta random(-5000, 5000)
\set write random(1, 5)
BEGIN;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid \gset
\if :write = 1
UPDATE pgbench_accounts SET abalance = :abalance + :delta WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, :aid, :delta, CURRENT_TIMESTAMP);
\endif
END;
