-- Session settings for loading: nothing here outlives the session.
-- (No synchronous_commit = off: VACUUM cannot mark pages all-visible or
-- frozen until the inserting transaction's commit record is flushed.)
-- Sorts that fit a moderate memory run faster here than one huge in-memory sort.
SET maintenance_work_mem = '64MB';
SET max_parallel_maintenance_workers = 0;
-- Everything the load makes goes into the staging schema (stage.sql).
SET search_path = eicbench_new;
