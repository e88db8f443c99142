-- Does the server accept this value for this session? (rolled back)
SELECT set_config($1, $2, true);
