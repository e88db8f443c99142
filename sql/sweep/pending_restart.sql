-- Settings whose new value waits for a restart. pg_file_settings reads the
-- configuration files when queried, so it answers at once; pg_settings'
-- pending_restart only after this backend has handled the reload's signal.
SELECT count(*) FROM (
    SELECT DISTINCT ON (name) name, applied, error
      FROM pg_file_settings
     ORDER BY name, seqno DESC) AS latest
 WHERE NOT applied AND error IS NOT NULL
UNION ALL
SELECT count(*) FROM pg_settings WHERE pending_restart
ORDER BY 1 DESC
LIMIT 1;
