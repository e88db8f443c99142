-- Where an external server keeps its files (superuser or pg_read_all_settings).
SHOW data_directory;
