# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# bench/build.mk: `make bench`, included by scripts-build/build.mk. The
# benchmark links the archive that keeps the internal symbols ($(LIBINT))
# to reach the table of counters; the first-call program links the shared
# one, as most users do.

BENCH_BIN = bench/bin/bench bench/bin/first bench/bin/persecond

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

# The first cpucycles_persecond(): its own program, which runs itself.
bench/bin/persecond: $(SRC)/bench/persecond.c $(SRC)/bench/child.c $(SRC)/bench/child.h \
                     $(SRC)/bench/stats.c $(SRC)/bench/stats.h $(LIBSO) $(LIBLINK) config.mk
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) -I$(PKG)/include -o $@ $(SRC)/bench/persecond.c \
	  $(SRC)/bench/child.c $(SRC)/bench/stats.c -L$(PKG)/lib -lcpucycles $(BUILD_RPATH) $(LDFLAGS)

bench: all $(BENCH_BIN)
	$(BUILD_LIBENV) $(RUN) bench/bin/bench $(RUN) bench/bin/first
	$(BUILD_LIBENV) $(RUN) bench/bin/persecond $(RUN) bench/bin/persecond

.PHONY: bench
