-- Percent done of the running index builds: the table scan, then the tree.
SELECT coalesce(avg(CASE WHEN tuples_total > 0
                         THEN 50 + 50.0 * tuples_done / tuples_total
                         WHEN blocks_total > 0
                         THEN 50.0 * blocks_done / blocks_total
                         ELSE 0 END), 0)
  FROM pg_stat_progress_create_index;
