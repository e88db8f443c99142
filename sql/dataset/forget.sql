DELETE FROM eicbench_dataset;
DROP TABLE IF EXISTS test;
