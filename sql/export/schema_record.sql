INSERT INTO eicbench.schema_version (version, name) VALUES ($1::integer, $2);
