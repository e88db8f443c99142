COPY eicbench.timing_intervals (folder_id, trial_key, thread, start_utc, count, lat_sum_us,
                                lat_sum2_us, lat_min_us, lat_max_us, lag_sum_us, lag_sum2_us,
                                lag_min_us, lag_max_us, skipped, retried, retries,
                                serialization_failures, deadlock_failures) FROM STDIN
