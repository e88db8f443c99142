-- The pg_aios sampler's own connection: no sample may hang.
SET statement_timeout = '1s';
SET lock_timeout = '1s';
