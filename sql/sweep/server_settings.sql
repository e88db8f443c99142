-- The settings that matter to the experiment, as they were when the sweep began.
SELECT name, current_setting(name), source
  FROM pg_settings
 WHERE name IN ('server_version', 'server_version_num', 'shared_buffers', 'work_mem',
                'effective_io_concurrency', 'maintenance_io_concurrency',
                'max_parallel_workers_per_gather', 'max_parallel_workers',
                'random_page_cost', 'seq_page_cost', 'effective_cache_size',
                'io_method', 'io_workers', 'io_max_concurrency', 'io_combine_limit',
                'io_max_combine_limit', 'data_checksums', 'block_size',
                'segment_size', 'wal_level', 'jit', 'track_io_timing', 'huge_pages')
 ORDER BY name;
