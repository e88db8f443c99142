-- Session settings for init: a sort that fits in memory builds the keys faster;
-- nothing here outlives the session.
SET maintenance_work_mem = '256MB';
SET synchronous_commit = off;
