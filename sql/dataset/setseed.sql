SELECT setseed($1::float8);
