-- The values in force in the trial's session, to prove each one took effect.
SELECT n, current_setting(n) FROM unnest($1::text[]) AS n;
