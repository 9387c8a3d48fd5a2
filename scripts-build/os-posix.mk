# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
# os-posix.mk: the build on a Unix-like system configure has no layer for
# (see build.mk and cpucycles/os-posix.c): an ELF shared library, as the
# BSDs and the Hurd use, and no cpucycles-open, whose settings are Linux's.

OS_BIN =
OS_NOT_MAN = cpucycles-open.1
SO_LINK_FLAGS =
include $(SRC)/scripts-build/elf-shared.mk
include $(SRC)/scripts-build/archive.mk
