-- %1$s: int, or bigint from scale 20000 (as pgbench); %2$d: the fillfactor.
CREATE TABLE pgbench_accounts (aid %1$s NOT NULL, bid int, abalance int, filler char(84))
  WITH (fillfactor = %2$d);
