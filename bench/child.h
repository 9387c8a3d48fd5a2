/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* child.h: running a program and capturing what it prints. */
#ifndef BENCH_CHILD_H
#define BENCH_CHILD_H

#include <stddef.h>

/* Runs argv (searched in PATH) in a fresh process and returns 0 with its
   standard output (at most len-1 bytes) in out, or -1 when it cannot be
   started, fails, or has not exited within seconds (it is then killed:
   some emulators hang in a forked child). */
int bench_child(char **argv, char *out, size_t len, int seconds);

#endif
