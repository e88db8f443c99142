-- Run inside one transaction with the record of the new data set: the old
-- one goes and the new one takes its place together, or neither happens.
DELETE FROM eicbench_dataset;
DROP TABLE IF EXISTS public.test;
ALTER TABLE eicbench_new.test SET SCHEMA public;
DROP SCHEMA eicbench_new;
