/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* futexabi.h: the futex operations os-linux.c uses, as numbers of the
   kernel's system call interface, declared here rather than taken from
   <linux/futex.h>: a C library's compiler may see no kernel headers
   (musl-gcc does not), and these numbers never change. test/unit/perfabi.c
   compares them with the kernel's header wherever a build has it. */
#ifndef CPUCYCLES_FUTEXABI_H
#define CPUCYCLES_FUTEXABI_H

#define FUTEXABI_WAIT 0
#define FUTEXABI_WAKE 1
/* The word is private to this process: no shared-memory lookup. */
#define FUTEXABI_PRIVATE_FLAG 128
#define FUTEXABI_WAIT_PRIVATE (FUTEXABI_WAIT | FUTEXABI_PRIVATE_FLAG)
#define FUTEXABI_WAKE_PRIVATE (FUTEXABI_WAKE | FUTEXABI_PRIVATE_FLAG)

#endif
