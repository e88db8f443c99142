-- %1$s: the index tablespace clause, or nothing.
ALTER TABLE pgbench_branches ADD PRIMARY KEY (bid)%1$s;
ALTER TABLE pgbench_tellers ADD PRIMARY KEY (tid)%1$s;
