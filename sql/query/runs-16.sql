-- Clustered: runs of 16 adjacent heap pages (3,616 consecutive rows), the
-- runs picked at random, about 1% of the pages in all (classes.sql).
SELECT * FROM test WHERE (((major / 3616)::bigint * 2654435761) % 4294967296) < 42949673
