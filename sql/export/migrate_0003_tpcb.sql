-- Migration 3: TPC-B results, in the spirit of pgbench-tools: a row per run
-- (a tpcb folder's, each confsweep trial's) in tests, the per-transaction
-- logs in timing and the aggregate ones in timing_intervals (export
-- --with-logs), the settings flattened, and views for the common questions.
CREATE TABLE IF NOT EXISTS eicbench.tests (
    folder_id      text NOT NULL REFERENCES eicbench.folders ON DELETE CASCADE ON UPDATE CASCADE,
    trial_key      text NOT NULL,         -- the confsweep trial's key; 'run' for a tpcb folder
    label          text,                  -- the test set
    hostname       text,
    started_utc    timestamptz,           -- of the folder
    step           text,                  -- confsweep: the step
    round          integer,               -- confsweep: the round
    server_version text,
    scale          integer,
    clients        integer,
    threads        integer,
    protocol       text,
    pipeline       integer,
    scripts        text,                  -- "tpcb-like", "mine.sql@2 + select-only@1"
    duration_s     double precision,      -- the measured clock
    transactions   bigint,                -- committed
    failures       bigint,
    tps            double precision,
    latency_avg_ms double precision,
    latency_p50_ms double precision,
    latency_p90_ms double precision,
    latency_p99_ms double precision,
    latency_max_ms double precision,
    cpu_us_per_tx  double precision,      -- the client's CPU per transaction
    settings       jsonb,                 -- confsweep: what the step set; tpcb: the server's at the start
    record         jsonb NOT NULL,
    PRIMARY KEY (folder_id, trial_key)
);
CREATE TABLE IF NOT EXISTS eicbench.timing (
    folder_id  text NOT NULL,
    trial_key  text NOT NULL,
    thread     integer NOT NULL,          -- the log's file: 0 for PREFIX.PID, N for PREFIX.PID.N
    line       integer NOT NULL,          -- its line, from 1
    client_id  integer,
    tx_no      bigint,
    status     text,                      -- ok, failed, skipped, serialization, deadlock
    latency_us double precision,          -- NULL when not ok
    script_no  integer,
    at         timestamptz,               -- when it ended
    lag_us     double precision,
    retries    integer,
    PRIMARY KEY (folder_id, trial_key, thread, line),
    FOREIGN KEY (folder_id, trial_key) REFERENCES eicbench.tests ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE TABLE IF NOT EXISTS eicbench.timing_intervals (
    folder_id  text NOT NULL,
    trial_key  text NOT NULL,
    thread     integer NOT NULL,
    start_utc  timestamptz NOT NULL,
    count      bigint,
    lat_sum_us double precision, lat_sum2_us double precision, lat_min_us double precision,
    lat_max_us double precision, lag_sum_us double precision, lag_sum2_us double precision,
    lag_min_us double precision, lag_max_us double precision,
    skipped bigint, retried bigint, retries bigint,
    serialization_failures bigint, deadlock_failures bigint,
    PRIMARY KEY (folder_id, trial_key, thread, start_utc),
    FOREIGN KEY (folder_id, trial_key) REFERENCES eicbench.tests ON DELETE CASCADE ON UPDATE CASCADE
);
-- Every setting of every test, one row each, with its number when it is one.
CREATE OR REPLACE VIEW eicbench.test_settings AS
SELECT t.folder_id, t.trial_key, t.label, s.key AS name, s.value,
       CASE WHEN s.value ~ '^-?[0-9]+(\.[0-9]+)?$' THEN s.value::double precision END AS value_num
  FROM eicbench.tests t, jsonb_each_text(coalesce(t.settings, '{}'::jsonb)) s;
-- tps by step: each confsweep step's runs, their median, range and p99.
CREATE OR REPLACE VIEW eicbench.tps_by_step AS
SELECT folder_id, label, hostname, step, count(*) AS runs,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY tps) AS tps_median,
       min(tps) AS tps_min, max(tps) AS tps_max,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_p99_ms) AS p99_median_ms
  FROM eicbench.tests
 GROUP BY folder_id, label, hostname, step;
-- latency by value: for each setting and value, across tests and hosts.
CREATE OR REPLACE VIEW eicbench.latency_by_value AS
SELECT s.label, s.name, s.value, count(*) AS runs,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY t.tps) AS tps_median,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY t.latency_avg_ms) AS latency_avg_median_ms,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY t.latency_p90_ms) AS latency_p90_median_ms,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY t.latency_p99_ms) AS latency_p99_median_ms
  FROM eicbench.test_settings s JOIN eicbench.tests t USING (folder_id, trial_key)
 GROUP BY s.label, s.name, s.value;
