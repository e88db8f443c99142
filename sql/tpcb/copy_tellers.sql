COPY pgbench_tellers (tid, bid, tbalance) FROM STDIN WITH (FORMAT binary, FREEZE);
