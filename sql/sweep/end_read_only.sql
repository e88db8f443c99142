-- The end of a trial's read-only transaction.
ROLLBACK;
