-- The value postgresql.auto.conf held before the sweep, to put back after it.
SELECT setting FROM pg_file_settings
 WHERE name = $1 AND sourcefile LIKE '%postgresql.auto.conf'
 ORDER BY seqno DESC LIMIT 1;
