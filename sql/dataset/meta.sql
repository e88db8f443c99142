-- What the suite knows of the data set it loaded; written last, so a row here
-- means the load finished.
CREATE TABLE IF NOT EXISTS eicbench_dataset (
    rows bigint NOT NULL,
    seed bigint NOT NULL,
    recipe text NOT NULL,
    info jsonb NOT NULL,
    loaded_at timestamptz NOT NULL DEFAULT now()
);
