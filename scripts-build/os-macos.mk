# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# os-macos.mk: the macOS pieces of the build (see build.mk): sysctl in the
# library and a Mach-O dynamic library. No cpucycles-open: the kernel
# settings it changes are Linux's.
#
# The dylib's install name is the path where `make install` puts it,
# libdir/libcpucycles.1.dylib: a program linked against it, in the build
# tree or installed (DESTDIR only stages the tree), records that path and
# finds the library there with no rpath. Programs in the build tree that
# run before any install find theirs through DYLD_LIBRARY_PATH, which
# dyld searches for the file name first (BUILD_LIBENV).

LIBSO = $(PKG)/lib/libcpucycles.1.dylib
LIBLINK = $(PKG)/lib/libcpucycles.dylib
OS_BIN =
OS_NOT_MAN = cpucycles-open.1
BUILD_RPATH =
BUILD_LIBENV = DYLD_LIBRARY_PATH=$(CURDIR)/$(PKG)/lib
# No flag for binding at load: zig's linker refuses -bind_at_load, and the
# test that asks for it (stack-static) only measures; a lazy bind there
# makes its figure larger, not wrong.
BIND_AT_LOAD =
INSTALL_NAME = $(or $(LIBDIR),$(PREFIX)/lib)/libcpucycles.1.dylib

$(LIBSO): $(LIB_OBJ) config.stamp
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CFLAGS) -dynamiclib -Wl,-install_name,$(INSTALL_NAME) \
	  -Wl,-compatibility_version,1.0.0 -Wl,-current_version,1.0.0 -o $@ $(LIB_OBJ) $(LDFLAGS)

# zig 0.11 cannot link several Mach-O objects into one relocatable object,
# as the ELF systems' archive.mk does: the macOS archive is the tests' one,
# the objects as they are (hidden symbols, which a Mach-O static link
# still sees as globals).
$(LIBA): $(LIBINT)
	@mkdir -p $(@D)
	cp $(LIBINT) $@
	$(RANLIB) $@
