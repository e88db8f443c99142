-- pg_stat_io as PostgreSQL 18 has it: op_bytes is gone; reads, writes and
-- extends count I/O operations (neighbouring blocks combined into one) and
-- read_bytes, write_bytes and extend_bytes their sizes. NULL cells mean the
-- operation never happens for that backend type, object and context.
SELECT backend_type, object, context,
       reads, read_bytes, read_time, writes, write_bytes, write_time,
       writebacks, writeback_time, extends, extend_bytes, extend_time,
       hits, evictions, reuses, fsyncs, fsync_time, stats_reset
  FROM pg_stat_io
 ORDER BY backend_type, object, context;
