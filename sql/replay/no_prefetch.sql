-- The replay's calibration runs the query without prefetching: every heap
-- block is read synchronously, so the heap phase less its I/O read time is
-- the backend's own work on the pages.
SET effective_io_concurrency = 0;
