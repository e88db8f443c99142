SELECT coalesce(max(version), 0) FROM eicbench.schema_version;
