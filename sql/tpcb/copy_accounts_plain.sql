COPY pgbench_accounts FROM STDIN WITH (FORMAT binary);
