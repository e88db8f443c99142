-- Scattered, about 1% of the heap pages, picked at random (classes.sql).
SELECT * FROM test WHERE ((major::bigint * 2654435761) % 4294967296) < 191000
