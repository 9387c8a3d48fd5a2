# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# For any make: upstream's targets, `make` (default), `make install` and
# `make clean`, and the few others that need nothing of GNU make. BSD make
# reads this file (FreeBSD's ports run it); GNU make reads GNUmakefile,
# which has these and the project's own targets (the tests, the benchmark).
# An out-of-tree build's Makefile (written by configure) sets CPUCYCLES_SRC and
# includes this one.
.OBJDIR: ${.CURDIR}
CPUCYCLES_SRC ?= .

default: build/0/Makefile
	cd build/0 && $(MAKE) default

all: default

build/0/Makefile:
	$(CPUCYCLES_SRC)/configure

# build/0 runs the install: a relative DESTDIR is made absolute first, so
# that `make install DESTDIR=D` stages into ./D as it says.
install uninstall: build/0/Makefile
	@d='$(DESTDIR)'; case $$d in ''|/*) ;; *) d=`pwd`/$$d ;; esac; \
	  echo "cd build/0 && $(MAKE) $@ DESTDIR=$$d"; cd build/0 && $(MAKE) $@ DESTDIR="$$d"

clean:
	rm -rf build

dist:
	python3 $(CPUCYCLES_SRC)/scripts-build/dist .

doc:
	python3 $(CPUCYCLES_SRC)/autogen/doc

doc-check:
	python3 $(CPUCYCLES_SRC)/autogen/check

# Any other target is the project's own, GNUmakefile's (make test, the
# tiers, the benchmark), which needs GNU make.
.DEFAULT:
	@echo "make $@: the project's own targets need GNU make: run gmake $@" >&2; exit 1

.PHONY: default all install uninstall clean dist doc doc-check
