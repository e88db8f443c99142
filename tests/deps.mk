# Extra objects a unit test links with, beyond bench/NAME.o and io/libeicio.a.
test_blocks_DEPS = tests/fixture.o
test_engines_DEPS = tests/fixture.o
test_dataset_DEPS = bench/settings.o bench/record.o bench/server.o bench/pgbin.o bench/pgutil.o bench/sqltext.o bench/sql_embed.o bench/gen.o
test_server_DEPS = bench/opts.o bench/pgbin.o
test_sqltext_DEPS = bench/sql_embed.o
test_relblocks_DEPS = bench/query.o bench/pgutil.o bench/sqltext.o bench/sql_embed.o
test_report_DEPS = bench/report_explain.o bench/report_render.o bench/report_plot.o bench/plot.o bench/doc.o bench/record.o bench/stats.o
test_sweep_DEPS = bench/opts.o
test_compare_DEPS = bench/report.o bench/report_explain.o bench/report_render.o bench/report_plot.o bench/plot.o bench/doc.o bench/record.o bench/stats.o
test_serverinfo_DEPS = bench/pgutil.o bench/sqltext.o bench/sql_embed.o
test_verdict_DEPS = bench/verdict_doc.o bench/verdict_plot.o bench/doc.o bench/report.o bench/report_explain.o bench/report_render.o bench/report_plot.o bench/plot.o bench/record.o bench/stats.o
test_combine_DEPS = tests/fixture.o
test_cachecheck_DEPS = tests/fixture.o
test_pgstats_DEPS = tests/pgresult.o bench/pgutil.o bench/sqltext.o bench/sql_embed.o
test_pgaios_DEPS = tests/pgresult.o bench/pgstats.o bench/pgutil.o bench/sqltext.o bench/sql_embed.o bench/server.o bench/opts.o bench/pgbin.o
test_pgprocs_DEPS = tests/pgresult.o bench/pgstats.o bench/pgutil.o bench/sqltext.o bench/sql_embed.o

# tests/it/pgstats.sh drives pg_stat_io, pg_aios and the worker listing on a
# real server through this small program, built with the unit tests.
PGSTATS_WATCH_OBJS = tests/pgstats_watch.o bench/pgaios.o bench/pgprocs.o bench/pgstats.o \
	bench/pgutil.o bench/sqltext.o bench/sql_embed.o bench/server.o bench/opts.o bench/pgbin.o
tests/pgstats-watch: $(PGSTATS_WATCH_OBJS) $(LIBIO)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(PGSTATS_WATCH_OBJS) $(LIBIO) $(LDLIBS)
unit: tests/pgstats-watch
-include tests/pgstats_watch.d
test_settings_DEPS = bench/record.o bench/server.o bench/pgbin.o bench/opts.o bench/pgutil.o bench/sqltext.o bench/sql_embed.o
test_stepfile_DEPS = bench/sweep.o bench/opts.o
