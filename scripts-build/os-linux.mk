# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# os-linux.mk: the Linux pieces of the build (see build.mk): /sys, /proc
# and perf_event in the library, an ELF shared library bound at load time,
# and cpucycles-open, which changes Linux kernel settings.

OS_CORE = os-linux perf
LIBSO = $(PKG)/lib/libcpucycles.so.1
LIBLINK = $(PKG)/lib/libcpucycles.so
OS_BIN = $(PKG)/bin/cpucycles-open
OS_NOT_MAN =
BUILD_RPATH = -Wl,-rpath,$(CURDIR)/$(PKG)/lib
BUILD_LIBENV =
# How a program asks for every symbol to be bound when it is loaded.
BIND_AT_LOAD = -Wl,-z,now

# Only the API is exported (exports.map). -pthread: the library calls
# pthread functions, which a C library may keep apart (glibc before 2.34
# in libpthread; from 2.34 they are in libc, and the flag adds nothing).
EXPORTS = $(SRC)/scripts-build/exports.map

$(LIBSO): $(LIB_OBJ) $(EXPORTS) config.mk
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CFLAGS) -shared -pthread -Wl,-z,now -Wl,-soname,libcpucycles.so.1 \
	  -Wl,--version-script=$(EXPORTS) -o $@ $(LIB_OBJ) $(LDFLAGS)

# Needs nothing of the library: it only changes kernel settings.
$(PKG)/bin/cpucycles-open: $(SRC)/command/cpucycles-open.c config.mk
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS)
