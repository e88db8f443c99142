-- A replay trial's index phase: the query's first row, so the server builds
-- the bitmap from the index as the query does (the whole index phase) and
-- reads one heap page, which the replay then evicts.
SELECT 1 FROM (%s) AS q LIMIT 1
