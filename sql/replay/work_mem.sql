-- The session's work_mem in bytes: the TID bitmap's memory, from which the
-- replay works out which of the scan's pages are lossy.
SELECT setting::bigint * 1024 FROM pg_settings WHERE name = 'work_mem';
