-- Migration 2: folder keys unique across hosts. A folder's key becomes
-- "HOST/NAME" (its run's key before NAME for a run's subfolder), the name
-- alone kept as folder_name; the children follow their folder's key
-- (ON UPDATE CASCADE). A label groups folders into a test set.
ALTER TABLE eicbench.folders ADD COLUMN IF NOT EXISTS folder_name text;
ALTER TABLE eicbench.folders ADD COLUMN IF NOT EXISTS label text;
UPDATE eicbench.folders SET folder_name = folder_id WHERE folder_name IS NULL;
ALTER TABLE eicbench.trials DROP CONSTRAINT IF EXISTS trials_folder_id_fkey;
ALTER TABLE eicbench.trials ADD CONSTRAINT trials_folder_id_fkey FOREIGN KEY (folder_id)
    REFERENCES eicbench.folders ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE eicbench.probe_points DROP CONSTRAINT IF EXISTS probe_points_folder_id_fkey;
ALTER TABLE eicbench.probe_points ADD CONSTRAINT probe_points_folder_id_fkey FOREIGN KEY (folder_id)
    REFERENCES eicbench.folders ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE eicbench.runs DROP CONSTRAINT IF EXISTS runs_folder_id_fkey;
ALTER TABLE eicbench.runs ADD CONSTRAINT runs_folder_id_fkey FOREIGN KEY (folder_id)
    REFERENCES eicbench.folders ON DELETE CASCADE ON UPDATE CASCADE;
UPDATE eicbench.folders
   SET folder_id = coalesce(hostname, 'unknown-host') || '/' || folder_id,
       parent_id = CASE WHEN parent_id IS NULL THEN NULL
                        ELSE coalesce(hostname, 'unknown-host') || '/' || parent_id END
 WHERE folder_id NOT LIKE coalesce(hostname, 'unknown-host') || '/%';
