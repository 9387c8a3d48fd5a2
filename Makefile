# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# Everything happens in build/0, the host configure chose last.
# `make` configures for this machine first when nobody has. An out-of-tree
# build's Makefile (written by configure) includes this one: build/ is
# then where make runs, and the source is only read.

SRC := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

all: build/0/config.mk
	$(MAKE) -C build/0 all

build/0/config.mk:
	$(SRC)/configure

test: build/0/config.mk
	$(MAKE) -C build/0 $@

# The install and the uninstall run in build/0: a relative DESTDIR is
# made absolute first, so that `make install DESTDIR=D` stages into ./D
# as it says.
install uninstall: build/0/config.mk
	$(MAKE) -C build/0 $@ $(if $(DESTDIR),DESTDIR=$(abspath $(DESTDIR)))

# libcpucycles-VERSION.tar.gz here, from the files git tracks (see the script).
dist:
	python3 $(SRC)/scripts-build/dist .

# Robustness (issue 4): sanitizers and fuzzing, in their own build dirs.
test-sanitize:
	sh $(SRC)/test/sanitize

fuzz:
	$(MAKE) -C $(SRC) -f test/fuzz/fuzz.mk

clean:
	rm -rf build

# The committed doc/html and doc/man from the markdown in doc/ (needs
# pandoc; building the library does not), and CI's check that they are
# current and that the man pages render cleanly.
doc:
	python3 $(SRC)/autogen/doc

doc-check:
	python3 $(SRC)/autogen/check

bench: build/0/config.mk
	$(MAKE) -C build/0 bench

# Every cross toolchain installed here, each host's suite under qemu-user.
test-cross:
	python3 $(SRC)/test/cross

# riscv32, built with zig's musl and run under qemu-riscv32 (no Debian
# compiler has a riscv32 C library); not part of CI.
test-riscv32:
	python3 $(SRC)/test/riscv32

# The macOS packages, built here with zig and checked as files (issue 13):
# nothing built for macOS runs on Linux.
test-macos:
	python3 $(SRC)/test/macos

# The Windows packages (issue 29): x86-64 built with MinGW-w64 and its
# suite run under Wine, x86 and arm64 (zig) built and checked as files.
# Installs the MinGW-w64 compilers and wine64 when missing (as root).
test-windows:
	python3 $(SRC)/test/wine

# From clean copies, README's commands and the suite as users and Debian's
# packagers build: this machine, a Debian 13 chroot, Debian's flags, clang,
# musl, a read-only source built out of tree, the dist tarball, a .deb
# (issue 17). CASES=... picks some.
test-distros:
	python3 test/distros $(CASES)
.PHONY: test-distros

# The first call inside language runtimes from Debian's packages (issue
# 27): OpenJDK 17 through JNI, Go through cgo, CPython through ctypes, each
# beside its own faulting threads or timers, in build/runtimes; installs
# openjdk-17-jdk-headless and golang-go when missing (as root).
test-runtimes:
	python3 $(SRC)/test/runtimes

# The suite under Debian's own kernels, booted with qemu-system (issue 10),
# after the harness's own time limits are checked against a stand-in guest.
test-system:
	python3 $(SRC)/test/system/selftest.py
	python3 $(SRC)/test/system/run

.PHONY: all install uninstall dist test clean doc doc-check test-cross test-system test-sanitize fuzz bench test-macos test-riscv32 \
  test-runtimes test-windows
