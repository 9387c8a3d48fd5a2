# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# build.mk: the build of one host, included by build/<host>/Makefile after
# the config.mk that configure wrote. Run from build/<host>.

PKG = package

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

all: $(LIBSO) $(LIBLINK) $(LIBA) $(PKG)/include/cpucycles.h \
     $(PKG)/bin/cpucycles-info $(OS_BIN) $(MAN) $(PKG)/lib/pkgconfig/cpucycles.pc

obj/%.o: $(SRC)/cpucycles/%.c
	$(CC) $(INC) -DCPUCYCLES_VERSION='"$(VERSION)"' -MMD -MP -c $< -o $@

obj/options.o: options.c
	$(CC) $(INC) -MMD -MP -c $< -o $@

# Each counter file gets its own name for the one symbol it defines.
obj/counter-%.o: $(SRC)/cpucycles/%.c
	$(CC) $(INC) -DCOUNTER=cpucycles_counter_$(subst -,_,$*) -MMD -MP -c $< -o $@

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
	$(CC) -nostdlib -fno-sanitize=all -r -o $@ $(LIB_OBJ)
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

# Linked statically so it runs from the build tree and from any prefix.
$(PKG)/bin/cpucycles-info: $(SRC)/command/cpucycles-info.c $(LIBA) $(PKG)/include/cpucycles.h
	@mkdir -p $(@D)
	$(CC) -I$(PKG)/include -o $@ $< $(LIBA) $(LDFLAGS)

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
	sh $(SRC)/scripts-build/install $(PKG) "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(LIBDIR)" \
	  "$(DESTDIR)$(INCLUDEDIR)" "$(DESTDIR)$(MANDIR)"

-include $(SRC)/test/build.mk
-include $(SRC)/bench/build.mk
-include obj/*.d

.PHONY: all install
