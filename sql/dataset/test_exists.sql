SELECT to_regclass('test') IS NOT NULL;
