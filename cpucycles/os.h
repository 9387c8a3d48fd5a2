/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * os.h: what the library asks of the operating system beyond POSIX. Each
 * OS answers in its own file, os-<name>.c (os-linux.c, os-macos.c), and
 * only that file is compiled for it: configure names the OS and
 * scripts-build/os-<name>.mk adds the file with the OS's other pieces
 * (perf.c on Linux, the shared library's name and link flags). The rest
 * of the library is portable; a new OS brings an os-<name>.c answering
 * these three questions and an os-<name>.mk.
 */
#ifndef CPUCYCLES_OS_H
#define CPUCYCLES_OS_H

#include <stddef.h>

/* Cycles per second as the OS reports them, 0 when it does not. root
   prefixes every file read so tests can use fixtures; an OS that reports
   through a system call (macOS's sysctl) describes this machine, not a
   tree, and answers 0 for any other root. */
long long cpucycles_os_persecond(const char *root);

/* Whether the OS lets every process run RDPMC without a perf event: 1
   yes, 0 no (it would fault), -1 the OS does not say (the guarded probe
   finds out). */
int cpucycles_os_rdpmc_open(void);

/* The PowerPC time base's rate in hz as the OS states it, 0 when it does
   not (the selection then measures it). */
long long cpucycles_os_timebase(void);

#ifdef __linux__
/* os-linux.c: the first value line() finds in root/proc/cpuinfo, 0 when
   none (exposed for the tests). */
long long cpucycles_cpuinfo_scan(const char *root, long long (*line)(const char *, size_t));
#endif

#endif
