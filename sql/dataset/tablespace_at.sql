-- The tablespace whose folder is $1 (NULL: none).
SELECT spcname FROM pg_tablespace WHERE pg_tablespace_location(oid) = $1;
