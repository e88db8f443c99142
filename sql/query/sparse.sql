-- A selective condition whose heap pages are scattered: about 0.1% of the
-- rows on about a fifth of the heap pages, so kernel readahead cannot help
-- and prefetching should.
SELECT * FROM test WHERE minor = 800
