-- The parallel class's session: two workers beside the leader (the
-- server's default, in place of the sweep's 0).
SET max_parallel_workers_per_gather = 2;
