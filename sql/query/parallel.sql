-- Parallel: runs-128's pages (runs of 128 adjacent pages, about 5%), summed
-- by the leader and two workers sharing one bitmap and its prefetching
-- (a Parallel Bitmap Heap Scan: the sum keeps the rows in the workers).
SELECT sum(minor) FROM test WHERE (((major / 28928)::bigint * 2654435761) % 4294967296) < 214748365
