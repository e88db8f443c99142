SELECT d.rows, d.seed, d.recipe, d.info::text
  FROM eicbench_dataset d
 WHERE to_regclass('test') IS NOT NULL
   AND to_regclass('minor_idx') IS NOT NULL
 ORDER BY d.loaded_at DESC
 LIMIT 1;
