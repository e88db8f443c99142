-- The block query's DISTINCT over millions of rows: keep it in memory rather
-- than spill temporary files onto the device under test.
SET work_mem = '64MB';
