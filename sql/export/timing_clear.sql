-- A folder's logs, before they are loaded again.
DELETE FROM eicbench.timing WHERE folder_id = $1;
DELETE FROM eicbench.timing_intervals WHERE folder_id = $1;
