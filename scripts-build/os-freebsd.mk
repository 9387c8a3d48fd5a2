# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# os-freebsd.mk: the FreeBSD pieces of the build (see build.mk and
# cpucycles/os-freebsd.c): an ELF shared library, and no cpucycles-open,
# whose settings are Linux's. The library's and cpucycles-info's files are
# scripts-build/sources.py's, as for every system.

OS_BIN =
OS_NOT_MAN = cpucycles-open.1
SO_LINK_FLAGS =
include $(SRC)/scripts-build/elf-shared.mk
include $(SRC)/scripts-build/archive.mk
