-- Has this backend (and so the postmaster, which signals it) loaded the
-- configuration since $1?
SELECT pg_conf_load_time() > $1::timestamptz;
