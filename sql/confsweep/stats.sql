-- The checkpointer's and bgwriter's counters and the WAL written (14 to 16),
-- each view as one JSON object; a run's figures are their differences.
SELECT 'bgwriter', row_to_json(s)::text FROM pg_stat_bgwriter s
UNION ALL
SELECT 'wal', row_to_json(w)::text
  FROM (SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') AS lsn_bytes, * FROM pg_stat_wal) w;
