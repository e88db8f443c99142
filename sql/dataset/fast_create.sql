-- The seed's table; the primary key is added after the data (fast recipe).
CREATE TABLE test (major int NOT NULL, minor int);
