SELECT count(*), min(major), max(major), min(minor), max(minor), avg(minor)::float8,
       count(*) FILTER (WHERE minor = 0), count(*) FILTER (WHERE minor = 1000)
  FROM test;
