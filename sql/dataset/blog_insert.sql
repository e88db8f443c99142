-- $1: the last value of major; the post used 100000000. setseed() first makes
-- random() repeatable on one PostgreSQL version (not across versions).
INSERT INTO test VALUES ( generate_series(0, $1::int), random()*1000 );
