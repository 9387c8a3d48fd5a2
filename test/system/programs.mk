# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# test/system/programs.mk: the suite's programs built, not run (test/system/run
# runs them in a guest). Read after a build directory's own Makefile, which
# lists them in TEST_BIN: make -f Makefile -f .../programs.mk test-programs
test-programs: all $(TEST_BIN)

.PHONY: test-programs
