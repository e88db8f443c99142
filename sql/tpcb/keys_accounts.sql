-- %1$s: the index tablespace clause, or nothing.
ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid)%1$s;
