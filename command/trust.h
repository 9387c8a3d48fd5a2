/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* trust.h: the "cpucycles trust" lines of cpucycles-info, each one fact
   about this machine that decides whether its cycle counts can be
   trusted, with what it read (doc/trust.md lists every code). Every file
   is read under root ("" on a real system), so the tests give fixture
   trees. The readers compile everywhere; trust_report calls the ones of
   Linux's /sys and /proc only on Linux. */
#ifndef TRUST_H
#define TRUST_H
#include <stdio.h>
#include "x86id.h"

/* The file at path (as a real system names it) held n bytes of buf that
   make no sense where a value was expected: the "odd" line. */
void trust_odd(FILE *out, const char *path, const char *buf, long n);

/* trustfreq.c: the governor of cpus[0] (and any of the others that
   differs), its frequency limits, or that none is visible; turbo. */
void trust_frequency(FILE *out, const char *root, const int *cpus, int n);
void trust_turbo(FILE *out, const char *root, int cpu);

/* trusttopo.c: where the process may run, SMT, core types. n 0: the
   system could not say. */
void trust_affinity(FILE *out, const int *cpus, int n, long online);
void trust_smt(FILE *out, const char *root, int cpu);
void trust_hybrid(FILE *out, const char *root, const int *cpus, int n);

/* trustkernel.c: the kernel's clocksource (x86: what that says of the
   TSC), and the NMI watchdog (intel: it holds a PMU counter). */
void trust_clocksource(FILE *out, const char *root, int x86);
void trust_watchdog(FILE *out, const char *root, int intel);

/* trustbsd.c, FreeBSD only: the timecounter lines in place of the
   clocksource ones, by sysctl (x86: what the kernel says of the TSC). */
#ifdef __FreeBSD__
void trust_timecounter(FILE *out, int x86);
#endif

/* All of them, in doc/trust.md's order. cpus, n: as trust_affinity;
   online: the CPUs online; id: what CPUID said. */
void trust_report(FILE *out, const char *root, const int *cpus, int n, long online,
                  const struct x86id *id);
#endif
