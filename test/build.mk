# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# test/build.mk: the test programs of one host, included by
# scripts-build/build.mk after the Makefile that builds the library.

# Every C file of the test folders is a test program, test/bin/<file
# name>: adding a test is adding its file (doc/testing.md). The folders
# say what a test checks; test/include holds what they share.
TEST_FOLDERS = unit extend32 firstcall company fork perf environment info windows
TEST_SOURCES = $(foreach d,$(TEST_FOLDERS),$(wildcard $(SRC)/test/$(d)/*.c))
TEST_NAMES = $(basename $(notdir $(TEST_SOURCES)))

# Tests of what only Linux has, of what Windows lacks, and of Windows
# alone, each with its reason: test/platforms.mk.
include $(SRC)/test/platforms.mk
TEST_NOT_HERE = $(if $(filter linux,$(OS)),,$(LINUX_ONLY)) \
                $(if $(filter windows,$(OS)),$(NOT_WINDOWS),$(WINDOWS_ONLY))

# Built otherwise (rules below): the public API's test and a first call's
# stack, each linked two ways; twocopies' plugin, a shared object.
# Each named test/bin/<name>$(EXE) (.exe on Windows).
TEST_TWICE = library-shared library-static stack-shared stack-static
TEST_TWICE_HERE = $(foreach t,$(TEST_TWICE),$(if $(filter $(firstword $(subst -, ,$(t))),$(TEST_NOT_HERE)),,$(t)))
TEST_BIN = $(addprefix test/bin/,$(addsuffix $(EXE),$(filter-out library stack plugin $(TEST_NOT_HERE),$(TEST_NAMES)) \
                                 $(TEST_TWICE_HERE)))

# The threading tests: what `make test-sanitize` runs under ThreadSanitizer.
THREAD_TESTS = $(addprefix test/bin/,$(filter-out $(TEST_NOT_HERE), \
                 guard once threads gaps handlers sentfault crosscore))

# Each program's header dependencies go to test/dep (test/run runs
# whatever is in test/bin); every program depends on the configuration.
TEST_CC = $(CC) $(CPUCYCLES_CFLAGS) $(CPPFLAGS) $(CFLAGS) \
          $(if $(DEPFLAGS),$(DEPFLAGS) -MF test/dep/$(@F).d)
TEST_DIRS = @mkdir -p $(@D) test/dep
TEST_INC = -I$(SRC)/test/include

# The tests reach inside the library: they link the archive that keeps
# its internal symbols global. One pattern rule a folder.
define TEST_RULE
test/bin/%$$(EXE): $(SRC)/test/$(1)/%.c $$(LIBINT) config.stamp
	$$(TEST_DIRS)
	$$(TEST_CC) $$(INC) $$(TEST_INC) $$(STATIC_DEFS) -o $$@ $$< $$(LIBINT) $$(THREAD_FLAGS) $$(LDFLAGS)
endef
$(foreach d,$(filter-out info,$(TEST_FOLDERS)),$(eval $(call TEST_RULE,$(d))))

# test/info: cpucycles-info's parts (command/), linked with them alone:
# they use nothing of the library.
test/bin/%$(EXE): $(SRC)/test/info/%.c $(INFO_OBJ) config.stamp
	$(TEST_DIRS)
	$(TEST_CC) $(TEST_INC) -I$(SRC)/command -o $@ $< $(INFO_OBJ) $(THREAD_FLAGS) $(LDFLAGS)

LIBRARY_DEFS = -DEXPECTED_VERSION='"$(VERSION)"' -DCOUNTERS='"$(COUNTERS)"'

# SHARED_LINK: how a program links the shared library (the Makefile's:
# on Windows the import library by name, since zig's linker takes
# libcpucycles.a for -lcpucycles where GNU ld takes libcpucycles.dll.a).
test/bin/library-shared$(EXE): $(SRC)/test/unit/library.c $(LIBSO) $(LIBLINK) config.stamp
	$(TEST_DIRS)
	$(TEST_CC) -I$(PKG)/include $(TEST_INC) $(LIBRARY_DEFS) -o $@ $< \
	  $(SHARED_LINK) $(BUILD_RPATH) $(LDFLAGS)

test/bin/library-static$(EXE): $(SRC)/test/unit/library.c $(LIBA) config.stamp
	$(TEST_DIRS)
	$(TEST_CC) -I$(PKG)/include $(TEST_INC) $(LIBRARY_DEFS) $(STATIC_DEFS) -o $@ $< $(LIBA) $(LDFLAGS)

# stack: the selection's own stack with every libc function bound at load
# (the archive in a program linked to bind at load), and with the shared
# library bound lazily, as it is linked, where the resolver runs on the
# same stack.
test/bin/stack-static: $(SRC)/test/firstcall/stack.c $(LIBA) config.stamp
	$(TEST_DIRS)
	$(TEST_CC) -I$(PKG)/include $(TEST_INC) -DBOUND_AT_LOAD -o $@ $< $(LIBA) $(BIND_AT_LOAD) \
	  $(LDFLAGS)

test/bin/stack-shared: $(SRC)/test/firstcall/stack.c $(LIBSO) $(LIBLINK) config.stamp
	$(TEST_DIRS)
	$(TEST_CC) -I$(PKG)/include $(TEST_INC) -o $@ $< \
	  -L$(PKG)/lib -lcpucycles $(BUILD_RPATH) $(LDFLAGS)

# Two copies in one process: the program links the shared library, the
# plugin (outside test/bin, which test/run runs whole) the archive, with
# the archive's symbols its own.
test/bin/twocopies: $(SRC)/test/company/twocopies.c $(LIBSO) $(LIBLINK) $(PKG)/include/cpucycles.h \
                    test/lib/plugin.so config.stamp
	$(TEST_DIRS)
	$(TEST_CC) -I$(PKG)/include $(TEST_INC) -o $@ $< -L$(PKG)/lib -lcpucycles $(BUILD_RPATH) \
	  -ldl -pthread $(LDFLAGS)

test/lib/plugin.so: $(SRC)/test/company/plugin.c $(LIBA) $(PKG)/include/cpucycles.h config.stamp
	$(TEST_DIRS)
	$(TEST_CC) -I$(PKG)/include -shared -o $@ $< $(LIBA) -Wl,--exclude-libs,ALL $(LDFLAGS)

test/bin/open: $(SRC)/test/environment/open.c $(PKG)/bin/cpucycles-open config.stamp
	$(TEST_DIRS)
	$(TEST_CC) $(TEST_INC) -DOPEN_BIN='"$(CURDIR)/$(PKG)/bin/cpucycles-open"' \
	  -o $@ $< $(LDFLAGS)

test: all $(TEST_BIN)
	python3 $(SRC)/test/run .

.PHONY: test

# Only the threading tests (and the library's outside checks): what
# `make test-sanitize` runs under ThreadSanitizer.
test-threads: all $(THREAD_TESTS)
	python3 $(SRC)/test/run .

.PHONY: test-threads

# The test programs built, none run: what `make test-macos` links for macOS.
test-programs: all $(TEST_BIN)

.PHONY: test-programs

# A test moved to another folder is still named, at its old place, by the
# dependencies its last build wrote: a missing source there only makes the
# program out of date, and the rule of its new folder builds it.
$(SRC)/test/%.c: ;

-include test/dep/*.d
