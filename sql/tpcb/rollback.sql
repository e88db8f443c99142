-- Ends a transaction block left in error by a failed statement.
ROLLBACK;
