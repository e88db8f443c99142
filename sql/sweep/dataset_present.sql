SELECT to_regclass('test') IS NOT NULL, pg_relation_size(to_regclass('test'));
