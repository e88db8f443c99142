-- bench-tpcb's custom-script row: a read after many \set per transaction
-- (every random function, hashes, a permutation, arithmetic, a branch),
-- run by pgbench and by eicbench from this one file.
\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
\set z random_zipfian(1, 100000 * :scale, 1.07)
\set g random_gaussian(1, 100000 * :scale, 2.5)
\set e random_exponential(1, 100000 * :scale, 3.0)
\set p permute(:z, 100000 * :scale)
\set h abs(hash(:aid)) % (100000 * :scale) + 1
\set x (:aid + :g * 2 - :e / 3 + :p + :h) % (100000 * :scale) + 1
\set y least(greatest(:x, 1), 100000 * :scale)
\if :delta > 0
\set d :delta * 2
\else
\set d -:delta
\endif
SELECT abalance FROM pgbench_accounts WHERE aid = :y;
