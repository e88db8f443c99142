-- %1$s: int, or bigint from scale 20000 (as pgbench); %2$s: the fillfactor
-- clause (none when partitioned); %3$s: UNLOGGED or nothing; %4$s: the
-- tablespace clause; %5$s: the partitioning clause.
CREATE %3$sTABLE pgbench_accounts (aid %1$s NOT NULL, bid int, abalance int, filler char(84))%5$s%2$s%4$s;
