ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid);
