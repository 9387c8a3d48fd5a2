# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# fuzz.mk: libFuzzer targets for every parser of text (make fuzz, from the
# top directory). Each target runs FUZZ_SECONDS from the committed seed
# corpus; new inputs go to build/fuzz/corpus/, never into the source tree.
# Any crash, sanitizer report or broken property fails the run.

FUZZ_SECONDS ?= 30
FUZZ_CC ?= clang
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
             -Wall -Wextra -Icpucycles -Itest/fuzz
TARGETS = hz cpuinfo_line cpuinfo stream
OUT = build/fuzz

# One target's run each (a static pattern rule: make searches no implicit
# rule for a phony target), so that make -j runs them side by side (each is
# one process: `make -j2 fuzz` keeps two cores busy for FUZZ_SECONDS
# twice instead of four times).
fuzz: $(TARGETS:%=fuzz-%)

$(TARGETS:%=fuzz-%): fuzz-%: $(OUT)/%
	@mkdir -p $(OUT)/corpus/$*
	@echo "fuzz $*: $(FUZZ_SECONDS) seconds"
	@if ! $(OUT)/$* -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -print_final_stats=1 \
	     $(OUT)/corpus/$* test/fuzz/corpus/$* > $(OUT)/$*.log 2>&1; then \
	  tail -40 $(OUT)/$*.log; echo "fuzz $*: FAILED (log: $(OUT)/$*.log)"; exit 1; \
	fi
	@grep -E 'stat::(number_of_executed_units|peak_rss_mb)' $(OUT)/$*.log | sed "s/^/fuzz $*: /"

$(OUT)/hz: test/fuzz/hz.c cpucycles/parse.c test/fuzz/fuzz.h cpucycles/internal.h
$(OUT)/cpuinfo_line: test/fuzz/cpuinfo_line.c cpucycles/parse.c test/fuzz/fuzz.h cpucycles/internal.h
$(OUT)/cpuinfo: test/fuzz/cpuinfo.c cpucycles/parse.c test/fuzz/fuzz.h cpucycles/internal.h
$(OUT)/stream: test/fuzz/stream.c cpucycles/parse.c cpucycles/cpuinfo.c test/fuzz/fuzz.h \
              cpucycles/internal.h

$(OUT)/%:
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(filter %.c,$^)

.PHONY: fuzz $(TARGETS:%=fuzz-%)
