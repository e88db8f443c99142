-- The heap blocks a query's rows live on, ascending, each with the number of
-- the query's rows on it: the pages a bitmap heap scan visits, in the order
-- it visits them, and the tuples an exact page of the bitmap holds. The
-- placeholder after "SELECT ctid" is the query's own FROM clause and all
-- that follows.
SELECT (ctid::text::point)[0]::bigint AS block, count(*) AS ntuples
FROM (SELECT ctid %s
     ) AS q
GROUP BY 1
ORDER BY 1;
