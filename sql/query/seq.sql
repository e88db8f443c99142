-- Sequential: every heap page in order, through a Seq Scan (no index has
-- major + minor, and no row matches, so the scan's reads are the query).
-- PostgreSQL 17 and later read it through a read stream that the setting
-- governs, and 18 reads it synchronously at 0.
SELECT * FROM test WHERE major + minor < 0
