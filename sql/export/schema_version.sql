-- Before any migration: the schema, and the table of the migrations applied.
SET client_min_messages = warning;
CREATE SCHEMA IF NOT EXISTS eicbench;
CREATE TABLE IF NOT EXISTS eicbench.schema_version (
    version    integer PRIMARY KEY,       -- migration N of sql/export/migrate_N_*.sql
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
);
