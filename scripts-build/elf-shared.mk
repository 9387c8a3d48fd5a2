# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# elf-shared.mk: the ELF shared library and the variables around it, for
# the OS files whose systems use ELF (os-linux.mk, os-posix.mk). The OS
# file sets SO_LINK_FLAGS for what only it adds to the link.
#
# Only the API is exported (exports.map, which GNU ld, gold, lld and the
# BSDs' linkers all read). -pthread: the library calls pthread functions,
# which a C library may keep apart (glibc before 2.34 in libpthread; from
# 2.34 they are in libc, and the flag adds nothing). --gc-sections drops
# the sections (build.mk: one a function) that nothing reaches from the
# API; GNU ld, gold, lld and the BSDs' linkers all take it.

LIBSO = $(PKG)/lib/libcpucycles.so.1
LIBLINK = $(PKG)/lib/libcpucycles.so
BUILD_RPATH = -Wl,-rpath,$(CURDIR)/$(PKG)/lib
BUILD_LIBENV =
# How a program asks for every symbol to be bound when it is loaded.
BIND_AT_LOAD = -Wl,-z,now
EXPORTS = $(SRC)/scripts-build/exports.map

$(LIBSO): $(LIB_OBJ) $(EXPORTS) config.stamp
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CFLAGS) -shared -pthread -Wl,--gc-sections $(SO_LINK_FLAGS) \
	  -Wl,-soname,libcpucycles.so.1 -Wl,--version-script=$(EXPORTS) -o $@ $(LIB_OBJ) $(LDFLAGS)
