-- pg_stat_io as PostgreSQL 16 and 17 have it: reads, writes and extends
-- count blocks of op_bytes each (always the block size). NULL cells mean the
-- operation never happens for that backend type, object and context.
SELECT backend_type, object, context,
       reads, read_time, writes, write_time, writebacks, writeback_time,
       extends, extend_time, op_bytes, hits, evictions, reuses,
       fsyncs, fsync_time, stats_reset
  FROM pg_stat_io
 ORDER BY backend_type, object, context;
