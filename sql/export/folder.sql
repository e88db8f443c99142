-- One folder's facts; loading it again replaces them. The key is HOST/NAME.
INSERT INTO eicbench.folders (folder_id, command, path, parent_id, hostname, started_utc,
                              git_rev, server_version, device, read_ahead_kb, dataset_rows,
                              query, meta, folder_name, label)
VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7, $8, $9, $10::integer, $11::bigint, $12, $13::jsonb,
        $14, $15)
ON CONFLICT (folder_id) DO UPDATE SET
    folder_name = EXCLUDED.folder_name, label = EXCLUDED.label,
    command = EXCLUDED.command, path = EXCLUDED.path, parent_id = EXCLUDED.parent_id,
    hostname = EXCLUDED.hostname, started_utc = EXCLUDED.started_utc,
    git_rev = EXCLUDED.git_rev, server_version = EXCLUDED.server_version,
    device = EXCLUDED.device, read_ahead_kb = EXCLUDED.read_ahead_kb,
    dataset_rows = EXCLUDED.dataset_rows, query = EXCLUDED.query, meta = EXCLUDED.meta,
    loaded_at = now();
