-- One export at a time migrates (held to the end of the transaction).
SELECT pg_advisory_xact_lock(hashtext('eicbench.schema_version'));
