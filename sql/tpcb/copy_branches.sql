COPY pgbench_branches (bid, bbalance) FROM STDIN WITH (FORMAT binary, FREEZE);
