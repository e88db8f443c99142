-- The settings that matter to a TPC-B run, as they were when it began.
SELECT name, current_setting(name), source
  FROM pg_settings
 WHERE name IN ('server_version', 'server_version_num', 'shared_buffers', 'work_mem',
                'max_connections', 'fsync', 'synchronous_commit', 'wal_level',
                'wal_buffers', 'full_page_writes', 'wal_compression', 'commit_delay',
                'commit_siblings', 'max_wal_size', 'min_wal_size', 'checkpoint_timeout',
                'checkpoint_completion_target', 'effective_io_concurrency',
                'maintenance_io_concurrency', 'io_method', 'huge_pages', 'autovacuum',
                'data_checksums', 'block_size', 'jit', 'default_transaction_isolation')
 ORDER BY name;
