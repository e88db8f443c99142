SELECT current_setting('server_version_num')::int, current_setting('wal_level'),
       current_setting('fsync');
