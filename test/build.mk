# test/build.mk: the test programs of one host, included by build.mk.

TEST_BIN = test/bin/select test/bin/persecond test/bin/arith test/bin/chosen test/bin/lazy \
           test/bin/tscrate test/bin/perfpage test/bin/perfclose test/bin/open \
           test/bin/library-shared test/bin/library-static

# Robustness (issue 4): threads, signals, fork, hostile environments.
THREAD_TESTS = test/bin/guard test/bin/once test/bin/threads
TEST_BIN += test/bin/fork test/bin/hostile test/bin/disturb
TEST_BIN += $(THREAD_TESTS)

test/bin/%: $(SRC)/test/%.c $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(INC) -I$(SRC)/test -o $@ $< $(LIBA) -pthread $(LDFLAGS)

LIBRARY_DEFS = -DEXPECTED_VERSION='"$(VERSION)"' -DCOUNTERS='"$(COUNTERS)"'

test/bin/library-shared: $(SRC)/test/library.c $(LIBSO) $(PKG)/lib/libcpucycles.so
	@mkdir -p $(@D)
	$(CC) -I$(PKG)/include -I$(SRC)/test $(LIBRARY_DEFS) -o $@ $< \
	  -L$(PKG)/lib -lcpucycles -Wl,-rpath,$(CURDIR)/$(PKG)/lib $(LDFLAGS)

test/bin/library-static: $(SRC)/test/library.c $(LIBA)
	@mkdir -p $(@D)
	$(CC) -I$(PKG)/include -I$(SRC)/test $(LIBRARY_DEFS) -o $@ $< $(LIBA) $(LDFLAGS)

test/bin/open: $(SRC)/test/open.c $(PKG)/bin/cpucycles-open
	@mkdir -p $(@D)
	$(CC) -I$(SRC)/test -DOPEN_BIN='"$(CURDIR)/$(PKG)/bin/cpucycles-open"' \
	  -DEMULATOR='"$(RUN)"' -o $@ $< $(LDFLAGS)

test: all $(TEST_BIN)
	python3 $(SRC)/test/run .

.PHONY: test

# Only the threading tests (and the library's outside checks): what
# `make test-sanitize` runs under ThreadSanitizer.
test-threads: all $(THREAD_TESTS)
	python3 $(SRC)/test/run .

.PHONY: test-threads
