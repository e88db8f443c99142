-- Freeze and analyze, so measured runs never write hint bits or visibility.
VACUUM (FREEZE, ANALYZE) test;
