INSERT INTO eicbench_dataset (rows, seed, recipe, info) VALUES ($1, $2, $3, $4::jsonb);
