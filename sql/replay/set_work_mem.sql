-- The calibration's runs with the bitmap exact: a work_mem that holds every
-- page of it ($1, as '65536kB'), for this session only.
SELECT set_config('work_mem', $1, false);
