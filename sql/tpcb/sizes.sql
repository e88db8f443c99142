SELECT pg_total_relation_size('pgbench_accounts'),
       pg_total_relation_size('pgbench_accounts') + pg_total_relation_size('pgbench_branches')
       + pg_total_relation_size('pgbench_tellers') + pg_total_relation_size('pgbench_history');
