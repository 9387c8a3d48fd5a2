# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# bench/build.mk: `make bench`, included by scripts-build/build.mk. The
# benchmark links the archive that keeps the internal symbols ($(LIBINT))
# to reach the table of counters; the first-call program links the shared
# one, as most users do.

BENCH_BIN = bench/bin/bench bench/bin/first bench/bin/floor

bench/bin/bench: $(SRC)/bench/bench.c $(SRC)/bench/child.c $(SRC)/bench/child.h \
                 $(SRC)/bench/stats.c $(SRC)/bench/stats.h $(SRC)/bench/floor.h $(LIBINT) \
                 config.mk
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(INC) -o $@ \
	  $(SRC)/bench/bench.c $(SRC)/bench/child.c $(SRC)/bench/stats.c $(LIBINT) $(LDFLAGS)

bench/bin/first: $(SRC)/bench/first.c $(SRC)/bench/stats.c $(SRC)/bench/stats.h \
                 $(LIBSO) $(LIBLINK) config.mk
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) -I$(PKG)/include -o $@ \
	  $(SRC)/bench/first.c $(SRC)/bench/stats.c -L$(PKG)/lib -lcpucycles $(BUILD_RPATH) $(LDFLAGS)

# The first call's floor, which bench runs from beside first: it reaches
# the table of counters to read the chosen one.
bench/bin/floor: $(SRC)/bench/floor.c $(SRC)/bench/stats.c $(SRC)/bench/stats.h $(LIBINT) config.mk
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(INC) -o $@ \
	  $(SRC)/bench/floor.c $(SRC)/bench/stats.c $(LIBINT) $(LDFLAGS)

bench: all $(BENCH_BIN)
	$(BUILD_LIBENV) $(RUN) bench/bin/bench $(RUN) bench/bin/first

.PHONY: bench
