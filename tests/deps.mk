# Test-only objects a unit test links with, beyond bench/NAME.o and the
# program's and io libraries (see the Makefile).
test_blocks_DEPS = tests/fixture.o
test_engines_DEPS = tests/fixture.o
test_lock_DEPS = tests/fixture.o
test_statedir_DEPS = tests/fixture.o
test_combine_DEPS = tests/fixture.o
test_cachecheck_DEPS = tests/fixture.o
test_datadir_DEPS = tests/fixture.o
test_pgstats_DEPS = tests/pgresult.o
test_pgaios_DEPS = tests/pgresult.o
test_pgprocs_DEPS = tests/pgresult.o

# tests/it/pgstats.sh drives pg_stat_io, pg_aios and the worker listing on a
# real server through this small program, built with the unit tests.
tests/pgstats-watch: tests/pgstats_watch.o $(LIBBENCH) $(LIBIO)
	@echo "  LD      $@"
	$(Q)$(LINK) -o $@ tests/pgstats_watch.o $(LIBBENCH) $(LIBIO) $(LDLIBS)
unit: tests/pgstats-watch
-include tests/pgstats_watch.d
test_replay_DEPS = tests/fixture.o
test_ioworkers_DEPS = tests/fixture.o
test_sysstat_DEPS = tests/fixture.o
test_pagereport_DEPS = tests/fixture.o
test_irqcpu_DEPS = tests/fixture.o
