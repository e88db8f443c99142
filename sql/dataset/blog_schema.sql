-- The seed's recipe, as written in the post (Portavita, 2019).
CREATE TABLE test (major int PRIMARY KEY, minor int);
CREATE INDEX minor_idx ON test (major, minor);
