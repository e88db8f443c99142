-- Scattered, about 0.1% of the heap pages: single rows on pages picked at
-- random (sql/dataset/classes.sql), gaps far wider than any readahead window.
-- Each page is a read the backend waits for unless it is prefetched.
SELECT * FROM test WHERE ((major::bigint * 2654435761) % 4294967296) < 19000
