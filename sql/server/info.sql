-- The server facts a record carries: the version, whether data checksums are
-- on, and how reads are issued (PostgreSQL 18's asynchronous I/O settings;
-- a setting the server does not have is simply absent). One row per setting.
SELECT name, vartype, coalesce(unit, ''), current_setting(name)
  FROM pg_settings
 WHERE name IN ('server_version', 'server_version_num', 'data_checksums',
                'block_size', 'io_method', 'io_workers', 'io_combine_limit',
                'io_max_combine_limit', 'io_max_concurrency')
 ORDER BY name;
