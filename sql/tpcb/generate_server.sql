-- -I G: the rows made by the server, as pgbench makes them; %1$s is the scale.
TRUNCATE TABLE pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history;
INSERT INTO pgbench_branches (bid, bbalance) SELECT bid, 0 FROM generate_series(1, %1$s) AS bid;
INSERT INTO pgbench_tellers (tid, bid, tbalance) SELECT tid, (tid - 1) / 10 + 1, 0 FROM generate_series(1, 10 * %1$s) AS tid;
INSERT INTO pgbench_accounts (aid, bid, abalance, filler) SELECT aid, (aid - 1) / 100000 + 1, 0, '' FROM generate_series(1, 100000 * %1$s::bigint) AS aid;
