-- What a trial's session sets beyond the server's own configuration.
SELECT name, current_setting(name) FROM pg_settings WHERE source = 'session' ORDER BY name;
