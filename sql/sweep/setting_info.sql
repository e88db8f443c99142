SELECT context, vartype, coalesce(min_val, ''), coalesce(max_val, ''), setting
  FROM pg_settings WHERE name = $1;
