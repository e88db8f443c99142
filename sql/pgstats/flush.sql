-- This backend's pending statistics are flushed when this statement's
-- transaction ends (otherwise at most once a second), so a snapshot taken
-- right after sees the query that ran before it.
SELECT pg_stat_force_next_flush();
