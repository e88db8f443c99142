SELECT pg_relation_size('test'), pg_relation_size('test_pkey'),
       pg_relation_size('minor_idx'), pg_total_relation_size('test');
