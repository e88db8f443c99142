SELECT EXISTS (SELECT 1 FROM eicbench_tpcb
                WHERE accounts_oid = to_regclass('pgbench_accounts')::oid);
