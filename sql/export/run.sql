-- A run's own record.
INSERT INTO eicbench.runs (folder_id, summary) VALUES ($1, $2::jsonb)
ON CONFLICT (folder_id) DO UPDATE SET summary = EXCLUDED.summary;
