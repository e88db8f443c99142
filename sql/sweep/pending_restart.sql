-- Settings whose new value waits for a restart (after a reload).
SELECT count(*) FROM pg_settings WHERE pending_restart;
