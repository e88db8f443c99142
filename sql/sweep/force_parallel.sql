-- The parallel class where the planner would not run it in parallel: the
-- bitmap scan forced, and parallel plans made free.
SET enable_seqscan = off;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
