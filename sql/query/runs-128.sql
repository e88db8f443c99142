-- Clustered: runs of 128 adjacent heap pages (1 MiB, 28,928 consecutive
-- rows), the runs picked at random, about 5% of the pages (classes.sql).
SELECT * FROM test WHERE (((major / 28928)::bigint * 2654435761) % 4294967296) < 214748365
