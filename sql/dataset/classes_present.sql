-- Does the data set in use have the query classes' indexes (classes.sql)?
SELECT to_regclass('public.test_scattered_idx') IS NOT NULL
   AND to_regclass('public.test_runs16_idx') IS NOT NULL
   AND to_regclass('public.test_runs128_idx') IS NOT NULL;
