-- One TPC-B run: a tpcb folder's, or a confsweep trial's; loading again replaces it.
INSERT INTO eicbench.tests (folder_id, trial_key, label, hostname, started_utc, step, round,
                            server_version, scale, clients, threads, protocol, pipeline, scripts,
                            duration_s, transactions, failures, tps, latency_avg_ms, latency_p50_ms,
                            latency_p90_ms, latency_p99_ms, latency_max_ms, cpu_us_per_tx,
                            settings, record)
VALUES ($1, $2, $3, $4, $5::timestamptz, $6, $7::integer, $8, $9::integer, $10::integer,
        $11::integer, $12, $13::integer, $14, $15::double precision, $16::bigint, $17::bigint,
        $18::double precision, $19::double precision, $20::double precision,
        $21::double precision, $22::double precision, $23::double precision,
        $24::double precision, $25::jsonb, $26::jsonb)
ON CONFLICT (folder_id, trial_key) DO UPDATE SET
    label = EXCLUDED.label, hostname = EXCLUDED.hostname, started_utc = EXCLUDED.started_utc,
    step = EXCLUDED.step, round = EXCLUDED.round, server_version = EXCLUDED.server_version,
    scale = EXCLUDED.scale, clients = EXCLUDED.clients, threads = EXCLUDED.threads,
    protocol = EXCLUDED.protocol, pipeline = EXCLUDED.pipeline, scripts = EXCLUDED.scripts,
    duration_s = EXCLUDED.duration_s, transactions = EXCLUDED.transactions,
    failures = EXCLUDED.failures, tps = EXCLUDED.tps, latency_avg_ms = EXCLUDED.latency_avg_ms,
    latency_p50_ms = EXCLUDED.latency_p50_ms, latency_p90_ms = EXCLUDED.latency_p90_ms,
    latency_p99_ms = EXCLUDED.latency_p99_ms, latency_max_ms = EXCLUDED.latency_max_ms,
    cpu_us_per_tx = EXCLUDED.cpu_us_per_tx, settings = EXCLUDED.settings, record = EXCLUDED.record;
