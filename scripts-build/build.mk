# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# build.mk: what GNU make adds to the library's build of one host. The
# build itself is build/<host>/Makefile, every compile and link of it,
# which configure writes (scripts-build/portable.py) and any make runs;
# build/<host>/GNUmakefile includes it, then this file. Run from
# build/<host>.

# `make` alone builds the package, as `make default` does, whatever rule
# an included file puts first.
.DEFAULT_GOAL := all

# Header dependencies (-MMD -MP) unless configure was told a one-off
# build: the Makefile's compile commands name DEPFLAGS, empty for other
# makes.
DEPFLAGS = $(if $(filter no,$(DEPENDENCY_TRACKING)),,-MMD -MP)

# Not for debugging or a sanitizer, as the Makefile's SIZE_CFLAGS says
# (portable.py), but from the CFLAGS given to make, not only to configure.
SIZE_CFLAGS = $(if $(filter -O0 -Og -fsanitize=%,$(CFLAGS)),,$(or $(SIZE_OPT),-Os))

# configure's inputs, the generator of the Makefile among them: when one
# changes, config.status runs configure again as it was run, keeping the
# objects (--noclean). Everything compiled depends on config.stamp, which
# configure rewrites only when what is compiled in changed (the version,
# the counters, the directories, the OS's files), not for a new compiler
# line alone: a recipe that writes another line into compilers/default,
# removes some objects and asks for one package file gets that file made
# with the new line, and the others left as they were, as with upstream's
# build.
CONFIGURE_INPUTS = $(SRC)/configure $(SRC)/version $(SRC)/cpucycles/options \
                   $(SRC)/scripts-build/tables.py $(SRC)/scripts-build/sources.py \
                   $(SRC)/scripts-build/portable.py $(wildcard $(SRC)/compilers/*)
config.mk: $(CONFIGURE_INPUTS)
	@test -f config.status || { echo "$(CURDIR): configured by an older configure;" \
	  "run configure again" >&2; exit 1; }
	sh config.status

# configure writes kinds.h and config.stamp beside config.mk; should one
# go missing alone, configure writes it again.
kinds.h config.stamp:
	sh config.status

-include $(SRC)/test/build.mk
-include $(SRC)/bench/build.mk
-include obj/*.d cpucycles/*.d
