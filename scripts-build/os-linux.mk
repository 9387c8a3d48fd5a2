# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# os-linux.mk: the Linux pieces of the build (see build.mk): /sys, /proc
# and perf_event in the library, an ELF shared library bound at load time,
# and cpucycles-open, which changes Linux kernel settings.

OS_CORE = os-linux perf
OS_BIN = $(PKG)/bin/cpucycles-open
OS_NOT_MAN =
# Bound at load: a first call made from a signal handler on a small
# alternate stack must not run the dynamic linker there.
SO_LINK_FLAGS = -Wl,-z,now
include $(SRC)/scripts-build/elf-shared.mk
include $(SRC)/scripts-build/archive.mk

# Needs nothing of the library: it only changes kernel settings.
$(PKG)/bin/cpucycles-open: $(SRC)/command/cpucycles-open.c config.mk
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS)
