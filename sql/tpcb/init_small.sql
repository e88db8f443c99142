-- %1$s: the type of history's aid; %2$s: the fillfactor clause; %3$s:
-- UNLOGGED or nothing; %4$s: the tablespace clause.
CREATE %3$sTABLE pgbench_branches (bid int NOT NULL, bbalance int, filler char(88))%2$s%4$s;
CREATE %3$sTABLE pgbench_tellers (tid int NOT NULL, bid int, tbalance int, filler char(84))%2$s%4$s;
CREATE %3$sTABLE pgbench_history (tid int, bid int, aid %1$s, delta int, mtime timestamp, filler char(22))%4$s;
