-- Where what a load session makes goes: the tablespace $1, or '' for the
-- database's default.
SELECT set_config('default_tablespace', $1, false);
