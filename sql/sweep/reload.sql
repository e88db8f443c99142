-- The configuration reloaded; returns when it was loaded before, so that
-- the caller can wait until the server has read the files again
-- (pg_reload_conf() only sends the postmaster a signal).
SELECT pg_conf_load_time()::text, pg_reload_conf();
