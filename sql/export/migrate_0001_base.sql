-- Migration 1, the first schema of the results database: every table keyed
-- so that loading a folder again replaces its rows instead of adding them.
-- IF NOT EXISTS throughout: a database an earlier export made, before there
-- were schema versions, takes it as it is.
CREATE TABLE IF NOT EXISTS eicbench.folders (
    folder_id      text PRIMARY KEY,      -- the folder's name and parent run, e.g. 20261201T103000Z-run/sweep-blog
    command        text NOT NULL,         -- sweep, probe, run, ...
    path           text NOT NULL,         -- where it was loaded from
    parent_id      text,                  -- the run folder holding it, if any
    hostname       text,
    started_utc    timestamptz,
    git_rev        text,
    server_version text,
    device         text,
    read_ahead_kb  integer,
    dataset_rows   bigint,
    query          text,
    meta           jsonb NOT NULL,
    loaded_at      timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS eicbench.trials (
    folder_id      text NOT NULL REFERENCES eicbench.folders ON DELETE CASCADE,
    trial_key      text NOT NULL,
    round          integer,
    query          text,
    settings       jsonb,
    execution_ms   double precision,
    heap_ms        double precision,
    index_ms       double precision,
    record         jsonb NOT NULL,
    PRIMARY KEY (folder_id, trial_key)
);
CREATE TABLE IF NOT EXISTS eicbench.probe_points (
    folder_id      text NOT NULL REFERENCES eicbench.folders ON DELETE CASCADE,
    point_no       integer NOT NULL,      -- the line of points.jsonl, from 1
    engine         text,
    depth          integer,
    iops           double precision,
    mib_s          double precision,
    record         jsonb NOT NULL,
    PRIMARY KEY (folder_id, point_no)
);
CREATE TABLE IF NOT EXISTS eicbench.runs (
    folder_id      text PRIMARY KEY REFERENCES eicbench.folders ON DELETE CASCADE,
    summary        jsonb NOT NULL         -- the run's own record: steps, recommendation
);
