-- Percent done of each running index build (the table scan, then the
-- tree), summed over them: a finished build has left the view.
SELECT coalesce(sum(CASE WHEN tuples_total > 0
                         THEN 50 + 50.0 * tuples_done / tuples_total
                         WHEN blocks_total > 0
                         THEN 50.0 * blocks_done / blocks_total
                         ELSE 0 END), 0)
  FROM pg_stat_progress_create_index;
