-- A load that stopped leaves the data set in use as it was.
DROP SCHEMA IF EXISTS eicbench_new CASCADE;
