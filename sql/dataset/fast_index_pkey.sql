CREATE UNIQUE INDEX test_pkey ON test (major);
