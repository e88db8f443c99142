-- The post's query (Portavita, 2019): a Bitmap Heap Scan over a BitmapOr.
-- Dense: about 10% of the rows, on every heap page, read in ascending order.
-- PostgreSQL 15 plans a Seq Scan for it at 100M rows.
SELECT * FROM test WHERE major BETWEEN 10 AND 100 OR minor BETWEEN 800 AND 900
