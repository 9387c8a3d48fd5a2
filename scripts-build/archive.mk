# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# archive.mk: the installed static library, libcpucycles.a, on the systems
# whose objects are ELF (included by os-linux.mk and os-posix.mk; macOS
# has its own rule in os-macos.mk). It defines no global symbol but the
# API.
#
# The archive holds one object, a partial link of the library in
# which every hidden (internal) symbol is made local: a program linking it
# statically sees the API and nothing else to collide with.
#
# Its objects are compiled apart, in cpucycles/ (upstream's place for the
# library's objects: a recipe that removes them and the archive gets both
# made again, with the flags of the moment), as machine code whatever
# the user's flags ask for:
# - -fno-lto: link-time optimization leaves compiler bytecode in an
#   object. A partial link of bytecode is an LTO link, where gcc 12 and
#   14 crash on fat objects (-ffat-lto-objects, Debian's optimize=+lto);
#   and symbols of slim bytecode cannot be made local at all, since their
#   code does not exist until the program's own link. Machine code links
#   and localizes under any of them, and a program built with -flto
#   links it like any other object.
# - -fno-sanitize=all: an instrumented object brings the sanitizer's own
#   symbols (clang's ___asan_globals_registered, the __odr_asan indicators),
#   which stay global, and clang would put the sanitizer's runtime into the
#   partial link, which a sanitized program then defines a second time.
#   The tests check the library sanitized through obj/internal.a and the
#   shared library; a sanitized program links this archive as it is.
# After the link:
# - The COMDAT groups go first (the compiler's PIC helpers, such as x86's
#   __x86.get_pc_thunk.bx): a program with its own copy of such a group
#   would otherwise discard ours, leaving our now-local references to a
#   section that is gone.
# - Not on MIPS: there a function's prologue computes $gp with a
#   GP-relative relocation against the function's own symbol, which the
#   linker reads differently once the symbol is local, and the program
#   crashes. The MIPS archive keeps its internal names global (hidden).
# The partial link takes CFLAGS (they may choose the ABI, as -m32 does)
# but not LDFLAGS, which are for programs and libraries: -pie, say, is
# refused beside -r.
STATIC_FLAGS = -fno-lto -fno-sanitize=all
# Sizes, alignment and sections as build.mk says for the shared
# library's objects (STATIC_FIRST: what goes before CFLAGS).
STATIC_COMPILE = $(CC) $(CPUCYCLES_CFLAGS) $(SECTION_CFLAGS) $(CPPFLAGS) $(STATIC_FIRST) $(CFLAGS) \
                 $(STATIC_FLAGS) $(INC) $(DEPFLAGS)
# Each named as its source is (cpucycles/api.o, cpucycles/amd64-tsc.o).
STATIC_CORE_OBJ = $(CORE:%=cpucycles/%.o)
STATIC_COUNTER_OBJ = $(COUNTERS:%=cpucycles/%.o)
$(STATIC_COUNTER_OBJ): STATIC_FIRST = $(COUNTER_OPT)
STATIC_OBJ = $(STATIC_CORE_OBJ) cpucycles/options.o $(STATIC_COUNTER_OBJ)
LOCALIZE = $(if $(filter mips%,$(HOST)),,--localize-hidden)

$(STATIC_CORE_OBJ): cpucycles/%.o: $(SRC)/cpucycles/%.c config.stamp
	@mkdir -p $(@D)
	$(STATIC_COMPILE) $(SIZE_CFLAGS) -DCPUCYCLES_VERSION='"$(VERSION)"' -c $< -o $@

cpucycles/options.o: options.c config.stamp
	@mkdir -p $(@D)
	$(STATIC_COMPILE) $(SIZE_CFLAGS) -c $< -o $@

$(STATIC_COUNTER_OBJ): cpucycles/%.o: $(SRC)/cpucycles/%.c config.stamp
	@mkdir -p $(@D)
	$(STATIC_COMPILE) -DCOUNTER=cpucycles_counter_$(subst -,_,$*) -c $< -o $@

obj/cpucycles.o: $(STATIC_OBJ)
	$(CC) $(CPUCYCLES_CFLAGS) $(CFLAGS) $(STATIC_FLAGS) -nostdlib -r -o $@ $(STATIC_OBJ)
	$(OBJCOPY) --remove-section=.group $(LOCALIZE) $@

$(LIBA): obj/cpucycles.o
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rc $@ obj/cpucycles.o
	$(RANLIB) $@

-include cpucycles/*.d
