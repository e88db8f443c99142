-- Which cluster a server is, however its connection string is spelled: the
-- system identifier initdb gave it, and its data directory.
SELECT system_identifier::text, current_setting('data_directory')
  FROM pg_control_system();
