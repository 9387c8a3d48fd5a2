# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# build.mk: the build of one host, included by build/<host>/Makefile after
# the config.mk that configure wrote. Run from build/<host>.

# `make` alone builds the package, whatever rule an included file puts first.
.DEFAULT_GOAL := all

PKG = package

# The project's own flags (CPUCYCLES_CFLAGS) come before the user's, which
# stay apart so that `make CC=... CFLAGS=...` replaces only the user's.
# Header dependencies (-MMD) unless configure was told a one-off build.
DEPFLAGS = $(if $(filter no,$(DEPENDENCY_TRACKING)),,-MMD -MP)

# CORE, the library's files besides the counters, and INFO_PARTS,
# cpucycles-info's parts, are config.mk's: configure writes them for the
# OS from scripts-build/sources.py, which the portable Makefile's rules
# come from too.
CORE_OBJ = $(CORE:%=obj/%.o) obj/options.o
COUNTER_OBJ = $(COUNTERS:%=obj/counter-%.o)
LIB_OBJ = $(CORE_OBJ) $(COUNTER_OBJ)
INC = -I$(SRC)/cpucycles -I$(SRC)/include

# The installed static library; its rule is the OS file's, since how its
# objects keep their internal names to themselves differs. LIBINT: the
# tests' and the benchmark's archive of the same objects, which they
# reach inside.
LIBA = $(PKG)/lib/libcpucycles.a
LIBINT = obj/internal.a

# What a program's file name ends in (.exe on Windows); how a program asks
# for the C library's threads (-pthread: Windows' own need no flag, and
# MinGW's -pthread would bring winpthread's DLL); what a
# program compiled against the static library defines (the header's
# CPUCYCLES_STATIC on Windows).
EXE =
THREAD_FLAGS = -pthread
STATIC_DEFS =

# What differs between operating systems: the shared library's name and link
# (LIBSO, the file; LIBLINK, the link to it for -lcpucycles) and the rules
# for it and for the static library (LIBA), programs of that OS alone
# (OS_BIN) and the man pages of programs it lacks (OS_NOT_MAN), and how a
# program from the build tree finds the shared library (BUILD_RPATH at
# link time, BUILD_LIBENV when run).
include $(SRC)/scripts-build/os-$(OS).mk

# Every man page in doc/man goes into the package, section by its suffix,
# but those of programs this OS does not get (OS_NOT_MAN).
MAN = $(filter-out $(OS_NOT_MAN:%=$(PKG)/man/man1/%), \
      $(patsubst $(SRC)/doc/man/%.1,$(PKG)/man/man1/%.1,$(wildcard $(SRC)/doc/man/*.1))) \
      $(patsubst $(SRC)/doc/man/%.3,$(PKG)/man/man3/%.3,$(wildcard $(SRC)/doc/man/*.3))

# --disable-shared and --disable-static (configure) leave a library out
# of the package and of `make install`; the tests still build both.
PKG_LIBS = $(if $(filter no,$(SHARED)),,$(LIBSO) $(LIBLINK)) $(if $(filter no,$(STATIC)),,$(LIBA))

PKG_BIN = $(PKG)/bin/cpucycles-info$(EXE) $(OS_BIN)

all: $(PKG_LIBS) $(PKG)/include/cpucycles.h $(PKG_BIN) $(MAN) $(PKG)/lib/pkgconfig/cpucycles.pc

# upstream's name for it
default: all

# configure's inputs: when one changes, config.status runs configure again
# as it was run, keeping the objects (--noclean). Everything compiled
# depends on config.stamp, which configure rewrites only when what is
# compiled in changed (the version, the counters, the directories, the
# OS's files), not for a new compiler line alone: a recipe that writes
# another line into compilers/default, removes some objects and asks for
# one package file gets that file made with the new line, and the others
# left as they were, as with upstream's build.
CONFIGURE_INPUTS = $(SRC)/configure $(SRC)/version $(SRC)/cpucycles/options \
                   $(SRC)/scripts-build/tables.py $(SRC)/scripts-build/sources.py \
                   $(wildcard $(SRC)/compilers/*) $(wildcard $(SRC)/scripts-build/os-*.mk)
config.mk: $(CONFIGURE_INPUTS)
	@test -f config.status || { echo "$(CURDIR): configured by an older configure;" \
	  "run configure again" >&2; exit 1; }
	sh config.status

# configure writes kinds.h and config.stamp beside config.mk; should one
# go missing alone, configure writes it again.
kinds.h config.stamp:
	sh config.status

# Size: all but the counters runs once a process (the selection, the
# estimate, the guard, the parsers) or is dominated by a system call, so
# it is compiled for size: SIZE_OPT, -Oz where configure found the
# compiler has it (gcc 12's is 2% smaller than its -Os on amd64), else
# -Os. The counter files, whose reads are the hot path, keep the
# optimization CFLAGS ask for. After CFLAGS, so that it
# holds, but not in a build for debugging (-O0, -Og) or for a sanitizer,
# whose redzones in the frames -Os leaves uninlined overflow the 8 KiB
# alternate stack of a first call in a handler (test/firstcall/stack.c;
# test/sanitize builds at -O2 for that reason). Each function and
# datum in a section of its own, so that a link drops what nothing calls
# (the shared library's, elf-shared.mk; a program's static link that
# asks for it).
SIZE_CFLAGS = $(if $(filter -O0 -Og -fsanitize=%,$(CFLAGS)),,$(or $(SIZE_OPT),-Os))
SECTION_CFLAGS = -ffunction-sections -fdata-sections

obj/%.o: $(SRC)/cpucycles/%.c config.stamp
	$(CC) $(CPUCYCLES_CFLAGS) $(SECTION_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(SIZE_CFLAGS) $(INC) \
	  -DCPUCYCLES_VERSION='"$(VERSION)"' $(DEPFLAGS) -c $< -o $@

obj/options.o: options.c config.stamp
	$(CC) $(CPUCYCLES_CFLAGS) $(SECTION_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(SIZE_CFLAGS) $(INC) \
	  $(DEPFLAGS) -c $< -o $@

# Each counter file gets its own name for the one symbol it defines.
# COUNTER_OPT, where configure found the compiler takes it, lets their
# functions start on any byte instead of 16: a read is a few
# instructions that run as fast either way (make bench gave cpucycles()
# the same cycles, gcc 12 on amd64, 2026-11-24), and the rest runs once;
# gcc 12's amd64 library is 128 bytes smaller. Before CFLAGS, so that an
# alignment CFLAGS ask for holds (gcc's -O levels do not undo it).
obj/counter-%.o: $(SRC)/cpucycles/%.c config.stamp
	$(CC) $(CPUCYCLES_CFLAGS) $(SECTION_CFLAGS) $(CPPFLAGS) $(COUNTER_OPT) $(CFLAGS) $(INC) \
	  -DCOUNTER=cpucycles_counter_$(subst -,_,$*) $(DEPFLAGS) -c $< -o $@

$(LIBINT): $(LIB_OBJ)
	rm -f $@
	$(AR) rc $@ $(LIB_OBJ)
	$(RANLIB) $@

# A link to the file, unless the OS file makes LIBLINK with the library
# (Windows' import library).
ifeq ($(LIBLINK_MADE),)
$(LIBLINK): $(LIBSO)
	ln -sf $(<F) $@
endif

$(PKG)/include/cpucycles.h: $(SRC)/include/cpucycles.h
	@mkdir -p $(@D)
	cp $< $@

# Linked statically so it runs from the build tree and from any prefix;
# with --disable-static, against the objects.
INFO_LIB = $(if $(filter no,$(STATIC)),$(LIBINT),$(LIBA))
# cpucycles-info's parts beside its main, one job a file (command/): the
# trust lines and the cross-core measurement. They use nothing of the
# library, so test/info links them alone.
INFO_OBJ = $(INFO_PARTS:%=obj/command-%.o)

obj/command-%.o: $(SRC)/command/%.c config.stamp
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

# kinds.h: each counter's kind, which configure writes from cpucycles/options.
# -pthread: the cross-core measurement's two threads.
$(PKG)/bin/cpucycles-info$(EXE): $(SRC)/command/cpucycles-info.c $(INFO_OBJ) $(INFO_LIB) \
                           $(PKG)/include/cpucycles.h $(wildcard $(SRC)/command/*.h) kinds.h config.stamp
	@mkdir -p $(@D)
	$(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(STATIC_DEFS) -I$(PKG)/include -I. -I$(SRC)/command \
	  -o $@ $< $(INFO_OBJ) $(INFO_LIB) $(THREAD_FLAGS) $(LDFLAGS)

$(PKG)/man/man3/%.3: $(SRC)/doc/man/%.3
	@mkdir -p $(@D)
	cp $< $@

$(PKG)/man/man1/%.1: $(SRC)/doc/man/%.1
	@mkdir -p $(@D)
	cp $< $@

# configure fills in cpucycles.pc (scripts-build/cpucycles.pc.in): it
# goes into the package, and `make install` installs it only where
# configure was asked to (PKGCONFIGDIR, --enable-pkgconfig).
$(PKG)/lib/pkgconfig/cpucycles.pc: cpucycles.pc
	@mkdir -p $(@D)
	cp $< $@

# The package's bin, lib, include and man go to configure's directories;
# uninstall takes the same files out of them again (the package tree says
# which, so it is built first), leaving the directories.
# The script is told which files: the programs, the shared library and
# its link as the OS file names them, and whether the static library is
# built.
INSTALL_DIRS = "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(INCLUDEDIR)" "$(DESTDIR)$(MANDIR)"
PKG_INSTALL = CPUCYCLES_PROGRAMS="$(notdir $(PKG_BIN))" CPUCYCLES_STATIC=$(STATIC) \
  CPUCYCLES_PKGCONFIG="$(PKGCONFIGDIR)" DESTDIR="$(DESTDIR)" \
  CPUCYCLES_SHARED="$(if $(filter no,$(SHARED)),,$(notdir $(LIBSO) $(LIBLINK)))" \
  sh $(SRC)/scripts-build/install

install: all
	$(PKG_INSTALL) $(PKG) $(INSTALL_DIRS)

uninstall: all
	$(PKG_INSTALL) -u $(PKG) $(INSTALL_DIRS)

-include $(SRC)/test/build.mk
-include $(SRC)/bench/build.mk
-include obj/*.d

.PHONY: all default install uninstall
