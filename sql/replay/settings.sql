-- What a replay trial reads as the query's session would see it: the server
-- version, effective_io_concurrency in force (the session's, after the
-- trial's SET), and on 18 io_method, io_combine_limit and io_workers (in
-- blocks and workers), shared_buffers in blocks and the settings that size a
-- backend's share of it, whether pages carry checksums, and on 18
-- io_max_concurrency (the size of each backend's io_uring ring). A setting a
-- version lacks is NULL.
SELECT current_setting('server_version_num')::int,
       current_setting('effective_io_concurrency')::int,
       current_setting('io_method', true),
       (SELECT setting::int FROM pg_settings WHERE name = 'io_combine_limit'),
       (SELECT setting::int FROM pg_settings WHERE name = 'io_workers'),
       (SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers'),
       current_setting('max_connections')::int,
       coalesce((SELECT setting::int FROM pg_settings WHERE name = 'autovacuum_worker_slots'),
                current_setting('autovacuum_max_workers')::int),
       current_setting('max_worker_processes')::int,
       current_setting('max_wal_senders')::int,
       current_setting('data_checksums'),
       (SELECT setting::int FROM pg_settings WHERE name = 'io_max_concurrency');
