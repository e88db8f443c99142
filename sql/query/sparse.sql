-- Scattered, about 20% of the heap pages: the rows with minor = 800 (0.1% of
-- the rows), read through a full scan of minor_idx. The gaps between pages
-- are about 5 pages, so at 0 the kernel's readahead, where its window is
-- wider than that, reads most of the table and serves the scan from it.
SELECT * FROM test WHERE minor = 800
