-- One trial of a sweep, by its key.
INSERT INTO eicbench.trials (folder_id, trial_key, round, query, settings, execution_ms,
                             heap_ms, index_ms, record)
VALUES ($1, $2, $3::integer, $4, $5::jsonb, $6::double precision, $7::double precision,
        $8::double precision, $9::jsonb)
ON CONFLICT (folder_id, trial_key) DO UPDATE SET
    round = EXCLUDED.round, query = EXCLUDED.query, settings = EXCLUDED.settings,
    execution_ms = EXCLUDED.execution_ms, heap_ms = EXCLUDED.heap_ms,
    index_ms = EXCLUDED.index_ms, record = EXCLUDED.record;
