-- Every trial's session: I/O timing for EXPLAIN's "I/O Read Time", and no
-- parallel workers (as in the post's 9.6 runs; --set max_parallel_workers_per_gather=N overrides).
SET track_io_timing = on;
SET max_parallel_workers_per_gather = 0;
-- Trials only read: a query that would write fails instead of changing the data set.
SET default_transaction_read_only = on;
