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

fuzz: $(TARGETS:%=$(OUT)/%)
	@for t in $(TARGETS); do \
	  mkdir -p $(OUT)/corpus/$$t; \
	  echo "fuzz $$t: $(FUZZ_SECONDS) seconds"; \
	  if ! $(OUT)/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -print_final_stats=1 \
	       $(OUT)/corpus/$$t test/fuzz/corpus/$$t > $(OUT)/$$t.log 2>&1; then \
	    tail -40 $(OUT)/$$t.log; echo "fuzz $$t: FAILED (log: $(OUT)/$$t.log)"; exit 1; \
	  fi; \
	  grep -E 'stat::(number_of_executed_units|peak_rss_mb)' $(OUT)/$$t.log | sed "s/^/fuzz $$t: /"; \
	done

$(OUT)/hz: test/fuzz/hz.c cpucycles/parse.c test/fuzz/fuzz.h cpucycles/internal.h
$(OUT)/cpuinfo_line: test/fuzz/cpuinfo_line.c cpucycles/parse.c test/fuzz/fuzz.h cpucycles/internal.h
$(OUT)/cpuinfo: test/fuzz/cpuinfo.c cpucycles/parse.c test/fuzz/fuzz.h cpucycles/internal.h
$(OUT)/stream: test/fuzz/stream.c cpucycles/parse.c cpucycles/cpuinfo.c test/fuzz/fuzz.h \
              cpucycles/internal.h

$(OUT)/%:
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(filter %.c,$^)

.PHONY: fuzz
