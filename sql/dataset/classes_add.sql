-- A data set loaded before the query classes got their indexes and
-- statistics (classes.sql, run in public): the statistics gathered again.
ANALYZE test;
