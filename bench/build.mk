# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# bench/build.mk: `make bench`, included by scripts-build/build.mk. The
# benchmark links the archive that keeps the internal symbols ($(LIBINT))
# to reach the table of counters; the first-call program links the shared
# one, as most users do.

BENCH_BIN = bench/bin/bench bench/bin/first bench/bin/persecond bench/bin/floor
# Process start (startup.c): start.c with no library, an empty one, ours.
START_BIN = bench/bin/startup bench/bin/start-none bench/bin/start-empty bench/bin/start-lib

bench/bin/bench: $(SRC)/bench/bench.c $(SRC)/bench/child.c $(SRC)/bench/child.h \
                 $(SRC)/bench/stats.c $(SRC)/bench/stats.h $(SRC)/bench/floor.h $(LIBINT) \
                 config.stamp
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(INC) -o $@ \
	  $(SRC)/bench/bench.c $(SRC)/bench/child.c $(SRC)/bench/stats.c $(LIBINT) $(LDFLAGS)

bench/bin/first: $(SRC)/bench/first.c $(SRC)/bench/stats.c $(SRC)/bench/stats.h \
                 $(LIBSO) $(LIBLINK) config.stamp
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) -I$(PKG)/include -o $@ \
	  $(SRC)/bench/first.c $(SRC)/bench/stats.c -L$(PKG)/lib -lcpucycles $(BUILD_RPATH) $(LDFLAGS)

# The first call's floor, which bench runs from beside first: it reaches
# the table of counters to read the chosen one.
bench/bin/floor: $(SRC)/bench/floor.c $(SRC)/bench/stats.c $(SRC)/bench/stats.h $(LIBINT) config.stamp
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(INC) -o $@ \
	  $(SRC)/bench/floor.c $(SRC)/bench/stats.c $(LIBINT) $(LDFLAGS)

# The first cpucycles_persecond(): its own program, which runs itself.
bench/bin/persecond: $(SRC)/bench/persecond.c $(SRC)/bench/child.c $(SRC)/bench/child.h \
                     $(SRC)/bench/stats.c $(SRC)/bench/stats.h $(LIBSO) $(LIBLINK) config.stamp
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) -I$(PKG)/include -o $@ $(SRC)/bench/persecond.c \
	  $(SRC)/bench/child.c $(SRC)/bench/stats.c -L$(PKG)/lib -lcpucycles $(BUILD_RPATH) $(LDFLAGS)

bench/bin/startup: $(SRC)/bench/startup.c $(SRC)/bench/stats.c $(SRC)/bench/stats.h config.stamp
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $(SRC)/bench/startup.c $(SRC)/bench/stats.c $(LDFLAGS)

bench/bin/start-none: $(SRC)/bench/start.c config.stamp
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS)

bench/lib/libempty.so: $(SRC)/bench/empty.c config.stamp
	@mkdir -p $(@D)
	$(CC) -fPIC $(CFLAGS) -shared -o $@ $< $(LDFLAGS)

bench/bin/start-empty: $(SRC)/bench/start.c bench/lib/libempty.so config.stamp
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DWITH_EMPTY -o $@ $< -Lbench/lib -lempty -Wl,-rpath,$(CURDIR)/bench/lib \
	  $(LDFLAGS)

bench/bin/start-lib: $(SRC)/bench/start.c $(LIBSO) $(LIBLINK) config.stamp
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DWITH_LIBRARY -I$(PKG)/include -o $@ $< -L$(PKG)/lib -lcpucycles \
	  $(BUILD_RPATH) $(LDFLAGS)

# Process start is the emulator's under one, so it is measured natively only.
bench: all $(BENCH_BIN) $(START_BIN)
	$(BUILD_LIBENV) $(RUN) bench/bin/bench $(RUN) bench/bin/first
	$(BUILD_LIBENV) $(RUN) bench/bin/persecond $(RUN) bench/bin/persecond
	$(if $(RUN),@echo "bench start=unmeasured emulator=$(RUN)",$(BUILD_LIBENV) bench/bin/startup 1001 \
	  bench/bin/start-none bench/bin/start-empty bench/bin/start-lib)
	python3 $(SRC)/bench/text.py $(LIBSO)

.PHONY: bench
