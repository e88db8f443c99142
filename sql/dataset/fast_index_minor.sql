CREATE INDEX minor_idx ON test (major, minor);
