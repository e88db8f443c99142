-- Where tablespace $1 lives ('' for the data directory's; no row: no such).
SELECT pg_tablespace_location(oid) FROM pg_tablespace WHERE spcname = $1;
