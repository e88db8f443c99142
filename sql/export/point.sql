-- One point of a probe, by its line number.
INSERT INTO eicbench.probe_points (folder_id, point_no, engine, depth, iops, mib_s, record)
VALUES ($1, $2::integer, $3, $4::integer, $5::double precision, $6::double precision, $7::jsonb)
ON CONFLICT (folder_id, point_no) DO UPDATE SET
    engine = EXCLUDED.engine, depth = EXCLUDED.depth, iops = EXCLUDED.iops,
    mib_s = EXCLUDED.mib_s, record = EXCLUDED.record;
