/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * os.h: what the library asks of the operating system beyond POSIX. Each
 * OS answers in its own file, os-<name>.c (os-linux.c, os-macos.c,
 * os-freebsd.c, os-windows.c, os-posix.c for any other Unix), and
 * only that file is compiled for it, with what it shares: os-silent.c,
 * the answers of an OS that states nothing about the counters (macOS,
 * Windows, any other Unix), and sysctl.c (macOS, FreeBSD).
 * scripts-build/sources.py says which files an OS gets, and
 * scripts-build/os-<name>.mk the OS's other pieces (the shared library's
 * name and link flags). The rest of the library is portable; a new OS
 * brings an os-<name>.c answering these questions (or leaving some to
 * os-silent.c), its line in sources.py and an os-<name>.mk.
 */
#ifndef CPUCYCLES_OS_H
#define CPUCYCLES_OS_H

#include <stddef.h>
#pragma GCC visibility push(hidden) /* see internal.h */

/* Cycles per second as the OS reports them, 0 when it does not. root
   prefixes every file read so tests can use fixtures; an OS that reports
   through a system call (macOS's sysctl) describes this machine, not a
   tree, and answers 0 for any other root. */
long long cpucycles_os_persecond(const char *root);
/* 1 where the kernel states the TSC's rate itself (FreeBSD's
   machdep.tsc_freq): the OS's answer then comes before CPUID's, which
   cpucycles_os_persecond asks only when the kernel gave none, and
   persecond.c does not ask CPUID first. */
#ifdef __FreeBSD__
#define CPUCYCLES_OS_ASKS_CPUID 1
#else
#define CPUCYCLES_OS_ASKS_CPUID 0
#endif

/* Whether the OS lets every process run RDPMC without a perf event: 1
   yes, 0 no (it would fault), -1 the OS does not say (the guarded probe
   finds out). */
int cpucycles_os_rdpmc_open(void);

/* The PowerPC time base's rate in hz as the OS states it, 0 when it does
   not (the selection then measures it). */
long long cpucycles_os_timebase(void);

/* Sleeps while *addr holds val, in the kernel, until cpucycles_os_wake
   on addr, a signal, or a while (at most about 0.1 s) has passed; the
   caller looks again either way. Async-signal-safe and allocation-free:
   a handler in one thread may wait for a selection in another. */
void cpucycles_os_wait(int *addr, int val);
/* Wakes every thread of this process sleeping on addr. (An OS without a
   compare-and-wait may sleep 50 us to 1 ms in cpucycles_os_wait and do
   nothing here: slower, still no spinning.) */
void cpucycles_os_wake(int *addr);

/* A positive number below 2^30 naming the calling thread among the live
   threads of its process (Linux: its tid; FreeBSD: thr_self's id; macOS:
   its Mach port name; an OS with none may number threads from a counter,
   kept thread-local). */
int cpucycles_os_thread(void);
/* 0 when no thread of this process is named id, so a claim that names it
   came with memory copied from another process; 1 when there is one, or
   the OS cannot tell. */
int cpucycles_os_thread_alive(int id);

/* What the OS's settings say about the counters, read now under root,
   for a traced selection's account of a counter that failed (why.h):
   Linux's perf and user access settings and whether this process holds
   CAP_PERFMON or CAP_SYS_ADMIN (os-linux-why.c); FreeBSD says the PMU is
   hwpmc's (os-freebsd.c); elsewhere none is known. */
struct cpucycles_why;
void cpucycles_os_why(const char *root, struct cpucycles_why *w);

#ifdef _WIN32
/* os-windows.c: the administrator's cycles-per-second file, Windows'
   counterpart of /etc/cpucyclespersecond: cpucyclespersecond in the
   ProgramData folder (%ProgramData%, C:\ProgramData when that is unset),
   or root/ProgramData/cpucyclespersecond under a test's root. 0 when
   absent or not a number. */
long long cpucycles_os_override(const char *root);
#endif

/* sysctl.c, for macOS's and FreeBSD's layers: the number the kernel
   gives by name, 32 or 64 bits; 0 when there is none or it is not a
   positive number. */
long long cpucycles_sysctl_number(const char *name);

#ifdef __linux__
/* os-linux.c: the first value line() finds in root/proc/cpuinfo, 0 when
   none (exposed for the tests). */
long long cpucycles_cpuinfo_scan(const char *root, long long (*line)(const char *, size_t));
#endif

#pragma GCC visibility pop
#endif
