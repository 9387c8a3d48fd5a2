# Everything happens in build/0, the host configure chose last.
# `make` configures for this machine first when nobody has.

all: build/0/config.mk
	$(MAKE) -C build/0

build/0/config.mk:
	./configure

install test: build/0/config.mk
	$(MAKE) -C build/0 $@

clean:
	rm -rf build

bench: build/0/config.mk
	$(MAKE) -C build/0 bench

.PHONY: all install test clean bench
