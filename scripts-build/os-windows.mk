# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# os-windows.mk: the Windows pieces of the build (see build.mk), for
# MinGW-w64's gcc, zig's clang and llvm-mingw: os-windows.c and the
# exception guard (guard-windows.c) in the library, which replace the
# POSIX signal guard and its prebound libc pointers; a DLL with its import
# library, laid out as MinGW packages are (the DLL in bin, beside the
# programs, where Windows' loader finds it; libcpucycles.dll.a in lib);
# programs named .exe. No cpucycles-open: the kernel settings it changes
# are Linux's.

EXE = .exe
LIBSO = $(PKG)/bin/libcpucycles-1.dll
LIBLINK = $(PKG)/lib/libcpucycles.dll.a
LIBLINK_MADE = yes
OS_BIN =
OS_NOT_MAN = cpucycles-open.1
# Windows' loader looks beside the program first: the tests copy the DLL
# next to theirs (test/build.mk), so nothing is needed at link or run time.
BUILD_RPATH =
BUILD_LIBENV =
BIND_AT_LOAD =
# Windows threads need no flag; MinGW's -pthread links winpthread.
THREAD_FLAGS =
# The header's switch for the static library's plain data symbol.
STATIC_DEFS = -DCPUCYCLES_STATIC
EXPORTS = $(SRC)/scripts-build/cpucycles.def
# The test programs link the DLL through its import library by name
# (test/build.mk): zig's linker would take libcpucycles.a for
# -lcpucycles.
SHARED_LINK = $(LIBLINK)

# -static-libgcc: the few helpers gcc calls (emulated thread-local
# storage on MinGW, 64-bit division on x86) go into the DLL rather than
# making it import libgcc_s_seh-1.dll, which a user would have to ship.
# zig's clang links its compiler-rt statically and ignores the flag.
# --gc-sections drops what nothing reaches from the five exports.
$(LIBSO): $(LIB_OBJ) $(EXPORTS) config.stamp
	@mkdir -p $(@D) $(dir $(LIBLINK))
	$(CC) $(CPUCYCLES_CFLAGS) $(CFLAGS) -shared -static-libgcc -Wl,--gc-sections \
	  -Wl,--out-implib,$(LIBLINK) -o $@ $(LIB_OBJ) $(EXPORTS) $(LDFLAGS)

$(LIBLINK): $(LIBSO) ;

# COFF has no hidden visibility for objcopy to turn into local symbols, as
# the ELF systems' archive.mk does: the archive is one partial link of
# the library's objects in which every global but the five exports is
# made local, so a program linking it statically sees the API alone, and
# the pointer to cpucycles that a program compiled for the DLL reads
# (api.c).
# 32-bit x86 Windows spells C's names with a leading underscore.
API_NAMES = cpucycles cpucycles_implementation cpucycles_persecond cpucycles_tracesetup \
            cpucycles_version
SYMBOL_PREFIX = $(if $(filter x86,$(HOST)),_)
obj/cpucycles.o: $(LIB_OBJ) $(EXPORTS)
	$(CC) $(CPUCYCLES_CFLAGS) $(CFLAGS) -nostdlib -r -o $@ $(LIB_OBJ)
	$(OBJCOPY) $(addprefix --keep-global-symbol=$(SYMBOL_PREFIX),$(API_NAMES)) \
	  --keep-global-symbol=__imp_$(SYMBOL_PREFIX)cpucycles $@

# zig 0.11 cannot link COFF objects into one ("coff does not support
# linking multiple objects into one"): its archive is the objects as they
# are, as macOS's is (os-macos.mk), their internal names global but all
# prefixed cpucycles_.
ARCHIVE_OBJ = $(if $(findstring zig,$(CC)),$(LIB_OBJ),obj/cpucycles.o)
$(LIBA): $(ARCHIVE_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rc $@ $(ARCHIVE_OBJ)
	$(RANLIB) $@
