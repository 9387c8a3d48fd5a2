# Everything happens in build/0, the host configure chose last.
# `make` configures for this machine first when nobody has.

all: build/0/config.mk
	$(MAKE) -C build/0

build/0/config.mk:
	./configure

install test: build/0/config.mk
	$(MAKE) -C build/0 $@

# Robustness (issue 4): sanitizers and fuzzing, in their own build dirs.
test-sanitize:
	sh test/sanitize

fuzz:
	$(MAKE) -f test/fuzz/fuzz.mk

clean:
	rm -rf build

.PHONY: all install test clean test-sanitize fuzz
