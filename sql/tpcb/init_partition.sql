-- One partition of pgbench_accounts: %1$s UNLOGGED or nothing, %2$s its
-- number, %3$s its bounds (FROM (a) TO (b), or WITH (MODULUS m, REMAINDER r)),
-- %4$s the fillfactor clause, %5$s the tablespace clause.
CREATE %1$sTABLE pgbench_accounts_%2$s PARTITION OF pgbench_accounts FOR VALUES %3$s%4$s%5$s;
