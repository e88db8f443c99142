# eicbench: build, test, install, benchmark and run targets.
# Plain GNU make; every library through pkg-config. CFLAGS, CPPFLAGS and
# LDFLAGS are the builder's and reach every compile and link (a
# distribution's hardening flags included); the project's own flags sit
# beside them in EB_*. -Werror is on (WERROR=1: make, make check, CI) unless
# a distribution build asks for it off with WERROR=0.

CC      ?= cc
CFLAGS  ?= -O2 -g
WERROR  ?= 1
# Where make install puts things (DESTDIR is prepended to each).
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
SHAREDIR ?= $(PREFIX)/share/eicbench
DOCDIR  ?= $(PREFIX)/share/doc/eicbench

PKGS     = libpq liburing jansson inih fuse3
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_CFLAGS := $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   := $(shell pkg-config --libs cmocka 2>/dev/null)
GIT_REV := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
LDLIBS  += $(PKG_LIBS) -lpthread -lm

# Option tables list their fields in order and leave trailing ones out (zero),
# so -Wextra's missing-field-initializers warning is off.
EB_CFLAGS   := -std=gnu11 -Wall -Wextra -Wno-missing-field-initializers
ifneq ($(WERROR),0)
EB_CFLAGS   += -Werror
endif
EB_CPPFLAGS := -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -I. $(PKG_CFLAGS)
# EB_DEFS: per-object defines (the revision, the installed data folder)
COMPILE = $(CC) $(EB_CPPFLAGS) $(EB_DEFS) $(CPPFLAGS) $(EB_CFLAGS) $(CFLAGS) -MMD -MP
LINK    = $(CC) $(EB_CFLAGS) $(CFLAGS) $(LDFLAGS)

ifeq ($(V),1)
Q =
else
Q = @
endif

SQL_EMBED  := bench/pg/sql_embed.c
SQL_FILES  := $(sort $(wildcard sql/*.sql sql/*/*.sql))
IO_SRCS    := $(sort $(wildcard io/*.c io/*/*.c))
# Every folder of bench/ and io/ is built: a new module is a file, never a
# line here.
BENCH_SRCS := $(sort $(filter-out $(SQL_EMBED),$(wildcard bench/*.c bench/*/*.c)) $(SQL_EMBED))
IO_OBJS    := $(IO_SRCS:.c=.o)
BENCH_OBJS := $(BENCH_SRCS:.c=.o)
LIBIO      := io/libeicio.a
# The program's modules but main and the commands, for the unit tests: a
# test links with its own module and whatever of these it uses.
LIBBENCH   := bench/libeicbench.a
LIB_OBJS   := $(filter-out bench/main.o bench/cmd/%.o,$(BENCH_OBJS))

UNIT_SRCS  := $(sort $(wildcard tests/test_*.c))
UNIT_BINS  := $(UNIT_SRCS:.c=)

all: eicbench man

eicbench: $(BENCH_OBJS) $(LIBIO)
	@echo "  LD      $@"
	$(Q)$(LINK) -o $@ $(BENCH_OBJS) $(LIBIO) $(LDLIBS)

$(SQL_EMBED): $(SQL_FILES) scripts/embed-sql.sh
	@echo "  GEN     $@"
	$(Q)scripts/embed-sql.sh $@ $(SQL_FILES)

$(LIBBENCH): $(LIB_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $(LIB_OBJS)

$(LIBIO): $(IO_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $(IO_OBJS)

# Records carry the revision the program was built from: main.o and
# record_host.o are rebuilt whenever it changes (the stamp file is rewritten
# only then). The program looks for its data files (the gnuplot scripts,
# the sweep files) in SHAREDIR when installed and names DOCDIR in its man
# pages; datadir.o is rebuilt when either changes.
.git-rev: FORCE
	@echo '$(GIT_REV)' | cmp -s - $@ || echo '$(GIT_REV)' >$@
.sharedir: FORCE
	@echo '$(SHAREDIR) $(DOCDIR)' | cmp -s - $@ || echo '$(SHAREDIR) $(DOCDIR)' >$@
bench/main.o bench/cmd/tpcb.o bench/record/record_host.o: .git-rev
bench/main.o bench/cmd/tpcb.o: EB_DEFS = -DEICBENCH_VERSION='"0.1-$(GIT_REV)"'
bench/record/record_host.o: EB_DEFS = -DEICBENCH_GIT_REV='"$(GIT_REV)"'
bench/cli/datadir.o: .sharedir
bench/cli/datadir.o: EB_DEFS = -DEICBENCH_SHAREDIR='"$(SHAREDIR)"' -DEICBENCH_DOCDIR='"$(DOCDIR)"'
FORCE:

%.o: %.c
	@echo "  CC      $@"
	$(Q)$(COMPILE) -c -o $@ $<

# A unit test links with its own module: tests/test_NAME.c with the
# NAME.o of whichever folder of bench/ holds NAME.c (the commands are not
# unit-tested), then the program's library and the io library for
# what that module uses. Test-only objects are named in tests/deps.mk as
# test_NAME_DEPS.
-include tests/deps.mk
tests/test_%.o: tests/test_%.c
	@echo "  CC      $@"
	$(Q)$(COMPILE) $(CMOCKA_CFLAGS) -c -o $@ $<

.SECONDARY:
.SECONDEXPANSION:
tests/test_%: tests/test_%.o $$(patsubst %.c,%.o,$$(filter-out bench/cmd/%,$$(wildcard bench/$$*.c bench/*/$$*.c))) $$(test_$$*_DEPS) $(LIBBENCH) $(LIBIO)
	@echo "  LD      $@"
	$(Q)$(LINK) -o $@ $(filter %.o,$^) $(LIBBENCH) $(LIBIO) $(CMOCKA_LIBS) $(LDLIBS)

# What is missing, installed with apt-get: deps for building and running
# (make run), deps-bench adds the benchmark targets' tools, deps-test what
# the tests use (make check). DEPS_FLAGS reach the script: --print lists the
# packages instead, --no-etc leaves /etc alone (scripts/install-deps.sh).
deps:
	$(Q)scripts/install-deps.sh --run $(DEPS_FLAGS)
deps-bench:
	$(Q)scripts/install-deps.sh --bench $(DEPS_FLAGS)
deps-test:
	$(Q)scripts/install-deps.sh --test $(DEPS_FLAGS)

unit: $(UNIT_BINS)

# The PostgreSQL 18 tests need an 18 build, and Debian 12 ships 15 only:
# one is built into the build cache when none is there (a few minutes; at
# once when one is). After deps: both may run apt-get.
pg18: deps-test
	$(Q)scripts/build-pg.sh 18 >/dev/null

# make check starts that build behind the compile and the tests (nice 19,
# so it takes only the CPU they leave), and run-tests.sh waits for it
# before the tests that need 18, which it runs last.
check: deps-test
	$(Q)scripts/build-pg.sh --background 18 >/dev/null
	$(Q)$(MAKE) --no-print-directory all unit
	$(Q)EICBENCH_WAIT_PG=18 scripts/run-tests.sh $(UNIT_BINS)

# The man pages, generated from the option tables by the program itself
# (eicbench manual): eicbench.1 and one page per command.
MAN_OUT  := man
MAN_DATE := $(shell git log -1 --format=%cs 2>/dev/null || date -u +%Y-%m-%d)
man: $(MAN_OUT)/.stamp
$(MAN_OUT)/.stamp: eicbench
	@echo "  MAN     $(MAN_OUT)/"
	$(Q)rm -rf $(MAN_OUT) && ./eicbench manual --out $(MAN_OUT) --date '$(MAN_DATE)' && touch $@

# make install: the program, its man pages, its data files (found there by
# the installed program) and the documents. DESTDIR stages the tree.
DATA_SCRIPTS := scripts/plot-sweep.gp scripts/plot-device.gp
DATA_SWEEPS  := $(sort $(wildcard sweeps/*.ini sweeps/*.sql))
DOCS         := $(sort $(wildcard docs/*.md))
install: all
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(SHAREDIR)/scripts' \
		'$(DESTDIR)$(SHAREDIR)/sweeps' '$(DESTDIR)$(DOCDIR)/docs' '$(DESTDIR)$(DOCDIR)/results'
	install -m 755 eicbench '$(DESTDIR)$(BINDIR)/eicbench'
	install -m 644 $(MAN_OUT)/*.1 '$(DESTDIR)$(MANDIR)/man1/'
	install -m 644 $(DATA_SCRIPTS) '$(DESTDIR)$(SHAREDIR)/scripts/'
	install -m 644 $(DATA_SWEEPS) '$(DESTDIR)$(SHAREDIR)/sweeps/'
	install -m 644 README.md LICENSE '$(DESTDIR)$(DOCDIR)/'
	install -m 644 $(DOCS) '$(DESTDIR)$(DOCDIR)/docs/'
	install -m 644 results/README.md '$(DESTDIR)$(DOCDIR)/results/'

# Only what install put there: the files by name, then the folders if empty.
uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/eicbench' '$(DESTDIR)$(MANDIR)/man1/eicbench.1' '$(DESTDIR)$(MANDIR)/man1/'eicbench-*.1
	rm -f $(addprefix '$(DESTDIR)$(SHAREDIR)/,$(addsuffix ',$(DATA_SCRIPTS) $(DATA_SWEEPS)))
	rm -f '$(DESTDIR)$(DOCDIR)/README.md' '$(DESTDIR)$(DOCDIR)/LICENSE' '$(DESTDIR)$(DOCDIR)/results/README.md' \
		$(addprefix '$(DESTDIR)$(DOCDIR)/,$(addsuffix ',$(DOCS)))
	-rmdir '$(DESTDIR)$(SHAREDIR)/scripts' '$(DESTDIR)$(SHAREDIR)/sweeps' '$(DESTDIR)$(SHAREDIR)' \
		'$(DESTDIR)$(DOCDIR)/docs' '$(DESTDIR)$(DOCDIR)/results' '$(DESTDIR)$(DOCDIR)' 2>/dev/null

# Every sanitizer report goes to a file in SAN_LOGS as well as failing its
# process, so that one from a command whose exit status a test does not
# look at (a leak at exit, say) fails the target too.
SAN_LOGS := $(CURDIR)/.sanitizer-logs
asan:
	$(Q)$(MAKE) --no-print-directory clean
	$(Q)rm -rf '$(SAN_LOGS)' && mkdir -p '$(SAN_LOGS)'
	$(Q)ASAN_OPTIONS='log_path=$(SAN_LOGS)/asan' UBSAN_OPTIONS='log_path=$(SAN_LOGS)/ubsan:print_stacktrace=1' \
		$(MAKE) --no-print-directory check \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined"
	$(Q)if [ -n "$$(ls -A '$(SAN_LOGS)')" ]; then cat '$(SAN_LOGS)'/*; \
		echo "sanitizer reports above (kept in $(SAN_LOGS))"; exit 1; fi
	$(Q)rm -rf '$(SAN_LOGS)'
	$(Q)$(MAKE) --no-print-directory clean

run: deps all
	$(Q)DATADIR='$(DATADIR)' ROWS='$(ROWS)' RUNS='$(RUNS)' EIC='$(EIC)' QUICK='$(QUICK)' scripts/run-main.sh

bench-load: deps-bench all
	$(Q)scripts/bench-load.sh

bench-probe: deps-bench all
	$(Q)scripts/bench-probe.sh

bench-tpcb: deps-bench all
	$(Q)scripts/bench-tpcb.sh

bench-emulate: deps-bench all
	$(Q)scripts/bench-emulate.sh

# The decision's error rates through the judge on simulated records, 400
# runs a cell (make check runs 40).
bench-judge: tests/test_judge_sim
	$(Q)JUDGE_SIM_RUNS=$${JUDGE_SIM_RUNS:-400} tests/test_judge_sim

# The same run twice: does the answer hold? FULL=1 for the full run.
bench-repeat: deps-bench all
	$(Q)FULL='$(FULL)' DATADIR='$(DATADIR)' scripts/bench-repeat.sh

# Known bugs planted one at a time in a copy of the checkout (never in it):
# each must make a check fail. MUTANTS="name ..." runs only those.
mutants: deps-test
	$(Q)scripts/mutants.sh $(MUTANTS)

clean:
	rm -f eicbench .git-rev .sharedir $(SQL_EMBED) $(LIBIO) $(LIBBENCH) $(UNIT_BINS) tests/pgstats-watch
	rm -rf $(MAN_OUT)
	find bench io tests -name '*.[od]' -delete

.PHONY: all deps deps-bench deps-test pg18 unit check man install uninstall asan run bench-load bench-probe bench-tpcb bench-emulate bench-repeat bench-judge mutants clean FORCE

-include $(IO_SRCS:.c=.d) $(BENCH_SRCS:.c=.d) $(UNIT_SRCS:.c=.d)
