-- A new data set is built in a schema of its own, beside the one in use,
-- and swapped in only when whole (swap.sql); what a killed load left there
-- goes first.
DROP SCHEMA IF EXISTS eicbench_new CASCADE;
CREATE SCHEMA eicbench_new;
