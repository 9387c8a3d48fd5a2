# build.mk: the build of one host, included by build/<host>/Makefile after
# the config.mk that configure wrote. Run from build/<host>.

# `make` alone builds the package, whatever rule an included file puts first.
.DEFAULT_GOAL := all

PKG = package

# The project's own flags (CPUCYCLES_CFLAGS) come before the user's, which
# stay apart so that `make CC=... CFLAGS=...` replaces only the user's.
# Header dependencies (-MMD) unless configure was told a one-off build.
DEPFLAGS = $(if $(filter no,$(DEPENDENCY_TRACKING)),,-MMD -MP)

CORE = api select scale extend32 anchor guard osclock parse persecond readfile chosen tscrate \
       $(OS_CORE)
CORE_OBJ = $(CORE:%=obj/%.o) obj/options.o
COUNTER_OBJ = $(COUNTERS:%=obj/counter-%.o)
LIB_OBJ = $(CORE_OBJ) $(COUNTER_OBJ)
INC = -I$(SRC)/cpucycles -I$(SRC)/include

LIBA = $(PKG)/lib/libcpucycles.a

# What differs between operating systems: the library's OS file and any
# other OS-only sources (OS_CORE), the shared library's name and link
# (LIBSO, the file; LIBLINK, the link to it for -lcpucycles), programs of
# that OS alone (OS_BIN) and the man pages of programs it lacks
# (OS_NOT_MAN), and how a program from the build tree finds the
# shared library (BUILD_RPATH at link time, BUILD_LIBENV when run).
include $(SRC)/scripts-build/os-$(OS).mk

# Every man page in doc/man goes into the package, section by its suffix,
# but those of programs this OS does not get (OS_NOT_MAN).
MAN = $(filter-out $(OS_NOT_MAN:%=$(PKG)/man/man1/%), \
      $(patsubst $(SRC)/doc/man/%.1,$(PKG)/man/man1/%.1,$(wildcard $(SRC)/doc/man/*.1))) \
      $(patsubst $(SRC)/doc/man/%.3,$(PKG)/man/man3/%.3,$(wildcard $(SRC)/doc/man/*.3))

# --disable-shared and --disable-static (configure) leave a library out
# of the package and of `make install`; the tests still build both.
PKG_LIBS = $(if $(filter no,$(SHARED)),,$(LIBSO) $(LIBLINK)) $(if $(filter no,$(STATIC)),,$(LIBA))

all: $(PKG_LIBS) $(PKG)/include/cpucycles.h \
     $(PKG)/bin/cpucycles-info $(OS_BIN) $(MAN) $(PKG)/lib/pkgconfig/cpucycles.pc

# configure's inputs: when one changes, config.status runs configure again
# as it was run. Everything compiled depends on the configuration.
CONFIGURE_INPUTS = $(SRC)/configure $(SRC)/version $(SRC)/cpucycles/options \
                   $(wildcard $(SRC)/compilers/*) $(wildcard $(SRC)/scripts-build/os-*.mk)
config.mk: $(CONFIGURE_INPUTS)
	@test -f config.status || { echo "$(CURDIR): configured by an older configure;" \
	  "run configure again" >&2; exit 1; }
	sh config.status

obj/%.o: $(SRC)/cpucycles/%.c config.mk
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(INC) -DCPUCYCLES_VERSION='"$(VERSION)"' \
	  $(DEPFLAGS) -c $< -o $@

obj/options.o: options.c config.mk
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(INC) $(DEPFLAGS) -c $< -o $@

# Each counter file gets its own name for the one symbol it defines.
obj/counter-%.o: $(SRC)/cpucycles/%.c config.mk
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(INC) \
	  -DCOUNTER=cpucycles_counter_$(subst -,_,$*) $(DEPFLAGS) -c $< -o $@

# The installed static library holds one object, a partial link of all of
# them in which every hidden (internal) symbol is made local: a program
# linking it statically sees the API and nothing else to collide with.
# - The COMDAT groups go first (the compiler's PIC helpers, such as x86's
#   __x86.get_pc_thunk.bx): a program with its own copy of such a group
#   would otherwise discard ours, leaving our now-local references to a
#   section that is gone.
# - Not on MIPS: there a function's prologue computes $gp with a
#   GP-relative relocation against the function's own symbol, which the
#   linker reads differently once the symbol is local, and the program
#   crashes. The MIPS archive keeps its internal names global (hidden).
# - -fno-sanitize=all: clang would put a sanitizer build's runtime into
#   the object, which the program's own link then defines a second time.
# The tests and the benchmark, which reach inside, link $(LIBINT): the
# objects as they are.
LIBINT = obj/internal.a
LOCALIZE = $(if $(filter mips%,$(HOST)),,--localize-hidden)

obj/cpucycles.o: $(LIB_OBJ)
	$(CC) $(CPUCYCLES_CFLAGS) $(CFLAGS) -nostdlib -fno-sanitize=all -r -o $@ $(LIB_OBJ)
	$(OBJCOPY) --remove-section=.group $(LOCALIZE) $@

ifeq ($(OS),macos)
# zig 0.11 cannot link several Mach-O objects into one relocatable object:
# the macOS archive holds the objects as they are (hidden symbols, which a
# Mach-O static link still sees as globals).
$(LIBA): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)
else
$(LIBA): obj/cpucycles.o
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ obj/cpucycles.o
endif

$(LIBINT): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

$(LIBLINK): $(LIBSO)
	ln -sf $(<F) $@

$(PKG)/include/cpucycles.h: $(SRC)/include/cpucycles.h
	@mkdir -p $(@D)
	cp $< $@

# Linked statically so it runs from the build tree and from any prefix;
# with --disable-static, against the objects.
INFO_LIB = $(if $(filter no,$(STATIC)),$(LIBINT),$(LIBA))
$(PKG)/bin/cpucycles-info: $(SRC)/command/cpucycles-info.c $(INFO_LIB) $(PKG)/include/cpucycles.h \
                           config.mk
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) -I$(PKG)/include -o $@ $< $(INFO_LIB) \
	  $(LDFLAGS)

$(PKG)/man/man3/%.3: $(SRC)/doc/man/%.3
	@mkdir -p $(@D)
	cp $< $@

$(PKG)/man/man1/%.1: $(SRC)/doc/man/%.1
	@mkdir -p $(@D)
	cp $< $@

# The directories are configure's: the file says where the library will
# live once installed, which DESTDIR staging does not change. Those under
# the prefix are written relative to it, as pkg-config users expect.
under_prefix = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))

$(PKG)/lib/pkgconfig/cpucycles.pc: $(SRC)/scripts-build/cpucycles.pc.in config.mk
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
	  -e 's|@LIBDIR@|$(call under_prefix,$(LIBDIR))|g' \
	  -e 's|@INCLUDEDIR@|$(call under_prefix,$(INCLUDEDIR))|g' $< > $@

# The package's bin, lib, include and man go to configure's directories.
install: all
	CPUCYCLES_STATIC=$(STATIC) CPUCYCLES_SHARED=$(SHARED) sh $(SRC)/scripts-build/install $(PKG) "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(LIBDIR)" \
	  "$(DESTDIR)$(INCLUDEDIR)" "$(DESTDIR)$(MANDIR)"

-include $(SRC)/test/build.mk
-include $(SRC)/bench/build.mk
-include obj/*.d

.PHONY: all install
