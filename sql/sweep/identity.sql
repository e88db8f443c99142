-- What a resumed sweep must find the same: the server (its system identifier).
-- The workload's relations come from its own query (sweep/relations.sql,
-- confsweep/relations.sql).
SELECT system_identifier::text FROM pg_control_system();
