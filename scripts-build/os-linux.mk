# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# os-linux.mk: the Linux pieces of the build (see build.mk): /sys, /proc
# and perf_event in the library, an ELF shared library bound lazily,
# and cpucycles-open, which changes Linux kernel settings.

OS_BIN = $(PKG)/bin/cpucycles-open
OS_NOT_MAN =
# Bound lazily, as libraries are by default: binding every import at load
# (-z now) cost each process that never calls the library the lookup of
# them all. A first call from a signal handler on an 8 KiB alternate
# stack then runs the dynamic linker's resolver there; test/firstcall/
# stack.c measures that it fits.
SO_LINK_FLAGS =
include $(SRC)/scripts-build/elf-shared.mk
include $(SRC)/scripts-build/archive.mk

# Needs nothing of the library: it only changes kernel settings.
$(PKG)/bin/cpucycles-open: $(SRC)/command/cpucycles-open.c config.stamp
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS)
