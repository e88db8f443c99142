-- A trial's query runs in a read-only transaction, whatever the session says.
BEGIN TRANSACTION READ ONLY;
