/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* sysfile.h: reading the kernel's small files (/sys, /proc) under a root
   directory, "" on a real system, a fixture tree in the tests. */
#ifndef SYSFILE_H
#define SYSFILE_H
#include <stddef.h>

/* Enough for any one-value file of /sys and /proc, and for the lists
   (available_clocksource) cpucycles-info quotes; longer files are cut. */
#define SYSFILE_MAX 512

/* root+path read into buf (up to SYSFILE_MAX bytes, not terminated): the
   byte count, or -1 when there is no regular file there or it cannot be
   read. Never blocks on a FIFO or device planted at the path. */
long sysfile_read(const char *root, const char *path, char buf[SYSFILE_MAX]);

/* Whether root+path is a directory (a PMU under /sys/devices). */
int sysfile_dir(const char *root, const char *path);
#endif
