-- The same from 17 on, where the checkpointer has a view of its own.
SELECT 'bgwriter', row_to_json(s)::text FROM pg_stat_bgwriter s
UNION ALL
SELECT 'checkpointer', row_to_json(c)::text FROM pg_stat_checkpointer c
UNION ALL
SELECT 'wal', row_to_json(w)::text
  FROM (SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') AS lsn_bytes, * FROM pg_stat_wal) w;
