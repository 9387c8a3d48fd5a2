# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# os-posix.mk: the build on a Unix-like system configure has no layer for
# (see build.mk and cpucycles/os-posix.c): an ELF shared library, as the
# BSDs and the Hurd use, and no cpucycles-open, whose settings are Linux's.

OS_CORE = os-posix
LIBSO = $(PKG)/lib/libcpucycles.so.1
LIBLINK = $(PKG)/lib/libcpucycles.so
OS_BIN =
OS_NOT_MAN = cpucycles-open.1
BUILD_RPATH = -Wl,-rpath,$(CURDIR)/$(PKG)/lib
BUILD_LIBENV =
BIND_AT_LOAD = -Wl,-z,now

# Only the API is exported (exports.map, which the BSDs' linkers read as
# GNU ld does); -pthread for the library's pthread calls.
EXPORTS = $(SRC)/scripts-build/exports.map

$(LIBSO): $(LIB_OBJ) $(EXPORTS) config.mk
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CFLAGS) -shared -pthread -Wl,-soname,libcpucycles.so.1 \
	  -Wl,--version-script=$(EXPORTS) -o $@ $(LIB_OBJ) $(LDFLAGS)
