-- Relaxed durability for the load only (managed cluster); undone by restore.sql.
-- wal_level minimal lets COPY FREEZE into a new table and the index builds skip WAL.
ALTER SYSTEM SET wal_level = 'minimal';
ALTER SYSTEM SET max_wal_senders = 0;
ALTER SYSTEM SET fsync = off;
ALTER SYSTEM SET full_page_writes = off;
ALTER SYSTEM SET autovacuum = off;
ALTER SYSTEM SET max_wal_size = '16GB';
ALTER SYSTEM SET checkpoint_timeout = '1h';
