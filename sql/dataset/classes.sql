-- The query classes' shapes (sql/query/): row i (major = i) is picked by a
-- multiplicative hash, (k * 2654435761) mod 2^32, of a key k, which spreads
-- consecutive keys evenly over 0 .. 2^32 - 1. Scattered classes hash major
-- itself (single rows, on pages chosen at random); the runs classes hash
-- major / R, so rows come in runs of R adjacent rows (R / 226 heap pages).
-- Each index is partial: it holds only the rows its largest class reads
-- (about 23,000 per 100M rows for the scattered ones), so it costs one pass
-- over the table and almost no space. The statistics on each expression
-- give the planner the rows each class selects (without them it guesses a
-- third of the table and plans a Seq Scan); the scattered one needs a fine
-- histogram (2,000 buckets), as 0.1% of the pages is 4.4 rows in a million.
CREATE INDEX IF NOT EXISTS test_scattered_idx ON test (((major::bigint * 2654435761) % 4294967296))
 WHERE ((major::bigint * 2654435761) % 4294967296) < 974000;
CREATE INDEX IF NOT EXISTS test_runs16_idx ON test ((((major / 3616)::bigint * 2654435761) % 4294967296))
 WHERE (((major / 3616)::bigint * 2654435761) % 4294967296) < 42949673;
CREATE INDEX IF NOT EXISTS test_runs128_idx ON test ((((major / 28928)::bigint * 2654435761) % 4294967296))
 WHERE (((major / 28928)::bigint * 2654435761) % 4294967296) < 214748365;
CREATE STATISTICS IF NOT EXISTS test_scattered_stat ON ((major::bigint * 2654435761) % 4294967296) FROM test;
ALTER STATISTICS test_scattered_stat SET STATISTICS 2000;
CREATE STATISTICS IF NOT EXISTS test_runs16_stat ON (((major / 3616)::bigint * 2654435761) % 4294967296) FROM test;
CREATE STATISTICS IF NOT EXISTS test_runs128_stat ON (((major / 28928)::bigint * 2654435761) % 4294967296) FROM test;
