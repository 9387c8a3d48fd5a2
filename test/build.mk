# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# test/build.mk: the test programs of one host, included by build.mk.

TEST_BIN = test/bin/select test/bin/persecond test/bin/arith test/bin/chosen test/bin/lazy \
           test/bin/tscrate test/bin/library-shared test/bin/library-static

# Tests of what only Linux has, built only there: perf_event (perfpage,
# perfclose, perfown, disturb, perfabi), cpucycles-open (open), seccomp filters and mount namespaces
# (hostile), pending signals held across the first call (pending).
# test/macos lists each with its reason.
LINUX_TESTS = test/bin/perfpage test/bin/perfclose test/bin/perfown test/bin/open test/bin/hostile \
              test/bin/pending test/bin/disturb test/bin/perfabi
TEST_BIN += $(if $(filter linux,$(OS)),$(LINUX_TESTS))

# Robustness (issue 4): threads, signals, fork, hostile environments.
THREAD_TESTS = test/bin/guard test/bin/once test/bin/threads test/bin/gaps
TEST_BIN += test/bin/fork
# Threads started long after the first call (issue 11); also run by hand with longer delays.
TEST_BIN += test/bin/latethreads

# Issue 12: fault signals pending before the first call, forks during it.
TEST_BIN += test/bin/forkmid

# A first call's stack (issue 12), in two ways a program may be linked:
# with the archive and bound lazily, so the dynamic linker resolves libc
# functions during the first call, on its stack; and with the shared
# library, everything bound at load (-z now), which leaves the library's
# own use.
TEST_BIN += test/bin/stack-static test/bin/stack-shared
TEST_BIN += $(THREAD_TESTS)

# Each program's header dependencies go to test/dep (test/run runs
# whatever is in test/bin); every program depends on the configuration.
TEST_CC = $(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) \
          $(if $(DEPFLAGS),$(DEPFLAGS) -MF test/dep/$(@F).d)
TEST_DIRS = @mkdir -p $(@D) test/dep

# Issue 18: the first call in company (signal handlers, sent faults,
# vfork, pid namespaces, real-time waiters, a second copy).
# Portable: handlers; Linux only (SI_TKILL, vfork's sharing, namespaces,
# sched_setaffinity, the plugin's ELF link): the others.
COMPANY_TESTS = test/bin/handlers
COMPANY_LINUX_TESTS = test/bin/sentfault test/bin/vfork test/bin/pidns test/bin/rtwait \
                      test/bin/twocopies
THREAD_TESTS += $(COMPANY_TESTS) $(if $(filter linux,$(OS)),test/bin/sentfault)
TEST_BIN += $(COMPANY_TESTS) $(if $(filter linux,$(OS)),$(COMPANY_LINUX_TESTS))

# The tests reach inside the library: they link the archive that keeps
# its internal symbols global.
test/bin/%: $(SRC)/test/%.c $(LIBINT) config.mk
	$(TEST_DIRS)
	$(TEST_CC) $(INC) -I$(SRC)/test -o $@ $< $(LIBINT) -pthread $(LDFLAGS)

LIBRARY_DEFS = -DEXPECTED_VERSION='"$(VERSION)"' -DCOUNTERS='"$(COUNTERS)"'

test/bin/library-shared: $(SRC)/test/library.c $(LIBSO) $(LIBLINK) config.mk
	$(TEST_DIRS)
	$(TEST_CC) -I$(PKG)/include -I$(SRC)/test $(LIBRARY_DEFS) -o $@ $< \
	  -L$(PKG)/lib -lcpucycles $(BUILD_RPATH) $(LDFLAGS)

test/bin/library-static: $(SRC)/test/library.c $(LIBA) config.mk
	$(TEST_DIRS)
	$(TEST_CC) -I$(PKG)/include -I$(SRC)/test $(LIBRARY_DEFS) -o $@ $< $(LIBA) $(LDFLAGS)

test/bin/stack-static: $(SRC)/test/stack.c $(LIBA) config.mk
	$(TEST_DIRS)
	$(TEST_CC) -I$(PKG)/include -I$(SRC)/test -o $@ $< $(LIBA) $(LDFLAGS)

test/bin/stack-shared: $(SRC)/test/stack.c $(LIBSO) $(LIBLINK) config.mk
	$(TEST_DIRS)
	$(TEST_CC) -I$(PKG)/include -I$(SRC)/test -DBOUND_AT_LOAD -o $@ $< \
	  -L$(PKG)/lib -lcpucycles $(BIND_AT_LOAD) $(BUILD_RPATH) $(LDFLAGS)

# Two copies in one process: the program links the shared library, the
# plugin (outside test/bin, which test/run runs whole) the archive, with
# the archive's symbols its own.
test/bin/twocopies: $(SRC)/test/twocopies.c $(LIBSO) $(LIBLINK) $(PKG)/include/cpucycles.h \
                    test/lib/plugin.so config.mk
	$(TEST_DIRS)
	$(TEST_CC) -I$(PKG)/include -I$(SRC)/test -o $@ $< -L$(PKG)/lib -lcpucycles $(BUILD_RPATH) \
	  -ldl -pthread $(LDFLAGS)

test/lib/plugin.so: $(SRC)/test/plugin.c $(LIBA) $(PKG)/include/cpucycles.h config.mk
	$(TEST_DIRS)
	$(TEST_CC) -I$(PKG)/include -shared -o $@ $< $(LIBA) -Wl,--exclude-libs,ALL $(LDFLAGS)

test/bin/open: $(SRC)/test/open.c $(PKG)/bin/cpucycles-open config.mk
	$(TEST_DIRS)
	$(TEST_CC) -I$(SRC)/test -DOPEN_BIN='"$(CURDIR)/$(PKG)/bin/cpucycles-open"' \
	  -DEMULATOR='"$(RUN)"' -o $@ $< $(LDFLAGS)

test: all $(TEST_BIN)
	python3 $(SRC)/test/run .

.PHONY: test

# Only the threading tests (and the library's outside checks): what
# `make test-sanitize` runs under ThreadSanitizer.
test-threads: all $(THREAD_TESTS)
	python3 $(SRC)/test/run .

.PHONY: test-threads

# The test programs built, none run: what `make test-macos` links for macOS.
test-programs: all $(TEST_BIN)

.PHONY: test-programs

-include test/dep/*.d
