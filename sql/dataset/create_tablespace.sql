-- A tablespace for the data set: its name and its folder are put in by the
-- caller, quoted (DDL takes no parameters).
CREATE TABLESPACE %s LOCATION %s;
