-- The bitmap heap scan is the subject: PostgreSQL 15 plans a Seq Scan for the
-- post's query at 100M rows, so the other scans are switched off.
SET enable_seqscan = off;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
