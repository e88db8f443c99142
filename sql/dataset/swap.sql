-- Run inside one transaction with the record of the new data set: the old
-- one goes and the new one takes its place together, or neither happens.
-- (The old table's statistics objects go with it; the new ones follow the
-- table, which does not take them along.)
DELETE FROM eicbench_dataset;
DROP TABLE IF EXISTS public.test;
ALTER TABLE eicbench_new.test SET SCHEMA public;
ALTER STATISTICS eicbench_new.test_scattered_stat SET SCHEMA public;
ALTER STATISTICS eicbench_new.test_runs16_stat SET SCHEMA public;
ALTER STATISTICS eicbench_new.test_runs128_stat SET SCHEMA public;
DROP SCHEMA eicbench_new;
