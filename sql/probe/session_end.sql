-- After the block query: the caller's session as it was before
-- probe/session.sql (the replay's calibration runs in it next, and must
-- see the trials' work_mem, under which the bitmap may be lossy).
RESET work_mem;
