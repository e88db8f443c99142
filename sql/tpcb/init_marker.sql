-- What eicbench knows of the pgbench tables it made; a row here means an init
-- finished, and names the pgbench_accounts it made (by oid).
CREATE TABLE IF NOT EXISTS eicbench_tpcb (
    scale bigint NOT NULL,
    accounts_oid oid NOT NULL,
    info jsonb NOT NULL,
    made_at timestamptz NOT NULL DEFAULT now()
);
