-- %1$s: the type of history's aid; %2$d: the fillfactor.
CREATE TABLE pgbench_branches (bid int NOT NULL, bbalance int, filler char(88))
  WITH (fillfactor = %2$d);
CREATE TABLE pgbench_tellers (tid int NOT NULL, bid int, tbalance int, filler char(84))
  WITH (fillfactor = %2$d);
CREATE TABLE pgbench_history (tid int, bid int, aid %1$s, delta int, mtime timestamp,
  filler char(22));
