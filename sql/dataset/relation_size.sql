SELECT coalesce(pg_relation_size(to_regclass('test')), 0);
