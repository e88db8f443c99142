INSERT INTO eicbench_tpcb (scale, accounts_oid, info)
VALUES ($1, 'pgbench_accounts'::regclass::oid, $2::jsonb);
