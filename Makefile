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

# Every cross toolchain installed here, each host's suite under qemu-user.
test-cross:
	python3 test/cross

.PHONY: all install test clean test-cross
