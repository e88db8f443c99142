COPY eicbench.timing (folder_id, trial_key, thread, line, client_id, tx_no, status, latency_us,
                      script_no, at, lag_us, retries) FROM STDIN
