-- The heap blocks a query's rows live on, distinct and ascending: the pages
-- a bitmap heap scan visits, in the order it visits them. The placeholder
-- after "SELECT ctid" is the query's own FROM clause and all that follows.
SELECT DISTINCT (ctid::text::point)[0]::bigint AS block
FROM (SELECT ctid %s
     ) AS q
ORDER BY 1;
