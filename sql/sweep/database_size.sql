SELECT pg_database_size(current_database());
