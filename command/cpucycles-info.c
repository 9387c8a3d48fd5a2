/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* cpucycles-info: what the library chose on this machine, and how it
   behaves: the selection trace, the cycles-per-second estimate, the spread
   of back-to-back readings, cycles per second as observed against the OS
   clock over growing busy loops, and notes on what that means for a user's
   measurements; then what decides whether this machine's numbers can be
   trusted (trust.h) and whether the counter agrees with itself across
   CPUs (crosscore.h), all after the first call, which they do not slow. */
#define _POSIX_C_SOURCE 200809L
/* macOS and FreeBSD hide what POSIX lacks (_SC_NPROCESSORS_ONLN) once
   _POSIX_C_SOURCE is set, unless asked; other systems ignore the macros. */
#define _DARWIN_C_SOURCE
#define __BSD_VISIBLE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <time.h>
#include <unistd.h>
#endif
#include <cpucycles.h>
#include "cpus.h"
#include "iqm.h"
#ifndef _WIN32
#include "crosscore.h"
#endif
#include "trust.h"
#include "x86id.h"

/* What each counter of cpucycles/options counts, by name: the library
   keeps its kinds to itself (it exports only its API), and a user reading
   a number needs to know which of these it is, and whether the count is
   the calling thread's own (one read through a perf event of the
   thread). The build writes the list from the table (kinds.h, in the
   build directory). */
enum kind { UNKNOWN, CORE, CORE_KERNEL, OFFCORE, OSCLOCK, NONE };

struct counter_kind {
  const char *name;
  enum kind kind;
  int per_thread;
};

static const struct counter_kind kinds[] = {
#include "kinds.h"
};

static const char *const kind_text[] = {
  "is a counter this cpucycles-info does not know: whether it counts core cycles is not known",
  "counts core cycles: the clock of the core it runs on, at whatever frequency that runs",
  "counts core cycles of this thread, read through the kernel (a system call per reading)",
  "counts an off-core clock at a fixed rate: core cycles only while the core runs at that rate",
  "counts an OS clock, converted to cycles with the estimate: as good as the estimate",
  "is no counter: every reading is 0",
};

/* The table's row of a counter; one of no kind, not per thread, for a
   name it does not have. */
static struct counter_kind kind_of(const char *name)
{
  static const struct counter_kind unknown = { "", UNKNOWN, 0 };
  size_t i;
  for (i = 0; i < sizeof kinds / sizeof kinds[0]; ++i)
    if (strcmp(kinds[i].name, name) == 0) return kinds[i];
  return unknown;
}

#define DIFFS 64

#ifdef _WIN32
/* Windows: the performance counter (MinGW's clock_gettime is
   winpthread's, a DLL this program should not need), and the processors
   Windows gives this process. */
static long long microseconds(void)
{
  LARGE_INTEGER t, f;
  if (!QueryPerformanceCounter(&t) || !QueryPerformanceFrequency(&f) || f.QuadPart <= 0) return 0;
  return t.QuadPart / f.QuadPart * 1000000 + t.QuadPart % f.QuadPart * 1000000 / f.QuadPart;
}

static long online_cpus(void)
{
  SYSTEM_INFO si;
  GetSystemInfo(&si);
  return (long)si.dwNumberOfProcessors;
}
#else
static long online_cpus(void)
{
  return sysconf(_SC_NPROCESSORS_ONLN);
}

static long long microseconds(void)
{
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}
#endif

/* 64 back-to-back differences: their interquartile mean (iqm.h), then
   each one minus it, with its sign. */
static void spread(void)
{
  long long t[DIFFS + 1], d[DIFFS], sorted[DIFFS], m;
  int i;

  for (i = 0; i <= DIFFS; ++i) t[i] = cpucycles();
  for (i = 0; i < DIFFS; ++i) sorted[i] = d[i] = t[i + 1] - t[i];
  m = iqm(sorted, DIFFS);
  printf("cpucycles iqm %lld ", m);
  for (i = 0; i < DIFFS; ++i) printf("%+lld", d[i] - m);
  printf("\n");
}

/* Both clock readings are truncated to whole microseconds, so the true
   elapsed time lies strictly between us-1 and us+1: the two bounds. The
   bounds of the longest loop are kept in lo and hi (0 when no line). */
static volatile long long sink; /* keeps the busy loop from being optimized away */

static void observed(long long *lo, long long *hi)
{
  long long loops;
  *lo = *hi = 0;
  for (loops = 1024; loops <= 1048576; loops *= 2) {
    long long i, us, cycles;
    long long us0 = microseconds(), c0 = cpucycles();
    for (i = 0; i < loops; ++i) sink += i;
    cycles = cpucycles() - c0;
    us = microseconds() - us0;
    if (us < 3) continue;
    *lo = cycles * 1000000 / (us + 1);
    *hi = (cycles * 1000000 + us - 2) / (us - 1);
    printf("cpucycles observed persecond %lld...%lld with %lld loops %lld microseconds\n", *lo,
           *hi, loops, us);
  }
}

/* Observed and estimated cycles per second disagree when the estimate lies
   outside the observed bounds widened by this fraction. */
#define DISAGREE 0.05

/* What the numbers above mean for someone measuring with this counter. */
static void notes(const char *impl, enum kind kind, long long persecond, long long lo,
                  long long hi)
{
  long cpus = online_cpus();

  printf("cpucycles note %s %s\n", impl, kind_text[kind]);
  if (kind == NONE) {
    printf("cpucycles note no counter works here, so there is nothing to observe\n");
  } else if (kind == OSCLOCK) {
    printf("cpucycles note observed cycles per second follow the estimate by construction, since "
           "the counter is scaled by it: they cannot show frequency scaling here\n");
  } else if (lo <= 0) {
    printf("cpucycles note no busy loop ran long enough to compare cycles per second with the "
           "estimate\n");
  } else if ((double)persecond < (double)lo * (1 - DISAGREE) ||
             (double)persecond > (double)hi * (1 + DISAGREE)) {
    printf("cpucycles note observed %lld...%lld cycles per second disagree with the estimate "
           "%lld by more than %.0f%%: frequency scaling or turbo is at work (or the estimate "
           "is off), %s\n", lo, hi, persecond, DISAGREE * 100,
           kind == CORE || kind == CORE_KERNEL ? "so cycles do not convert to time at the estimated rate"
                             : "so this clock's ticks are not the core's cycles");
  } else {
    printf("cpucycles note observed %lld...%lld cycles per second agree with the estimate %lld "
           "within %.0f%%: %s\n", lo, hi, persecond, DISAGREE * 100,
           kind == OFFCORE || kind == UNKNOWN
               ? "the clock runs at the estimated rate, but whether the core does too (no "
                 "turbo, no scaling) an off-core clock cannot show"
               : "no sign of frequency scaling during these loops");
  }
  printf("cpucycles note results vary when the process migrates between cores (%ld online "
         "here): counters of different cores may be offset or run at different rates, and "
         "caches start cold\n", cpus);
  printf("cpucycles note for steady numbers pin the process to one core (taskset -c 1 ...), "
         "fix the frequency (performance governor, turbo off), and take the median of many "
         "runs\n");
}

#ifdef _WIN32
/* The trust lines as on any system but Linux (CPUID on x86, no /sys);
   the cross-core measurement's threads are POSIX threads, which MinGW
   has only in winpthread's DLL: it is not built, and its line says so in
   the form crossreport.c gives a system that cannot pin threads. */
static void trust_and_crosscore(const char *impl, struct counter_kind k)
{
  struct x86id id;

  (void)k;

  x86id_read(&id);
  trust_report(stdout, "", 0, 0, online_cpus(), &id);
  printf("cpucycles crosscore not-available (no sched_getaffinity here): this program does not "
         "pin threads to CPUs on Windows, so the offset of %s between CPUs is not measured\n",
         impl);
}
#else
/* The counter as a program sees it, for the cross-core measurement: the
   CPU the thread was pinned to changes nothing of a real counter. */
static long long chosen(void *ctx, int cpu)
{
  (void)ctx;
  (void)cpu;
  return cpucycles();
}

/* k.per_thread: the readings are the calling thread's own count, as
   cpucycles/options says of every counter read through a perf event of
   the calling thread (test/checks/trustdoc.py holds the table to the
   files that open such events). */
static void trust_and_crosscore(const char *impl, struct counter_kind k)
{
  int *cpus, n = cpus_allowed(&cpus);
  struct x86id id;

  x86id_read(&id);
  trust_report(stdout, "", cpus, n, sysconf(_SC_NPROCESSORS_ONLN), &id);
  fflush(stdout);
  crosscore_info(stdout, impl, k.kind == NONE, k.per_thread, chosen, 0, cpus, n);
  free(cpus);
}
#endif

int main(void)
{
  long long lo, hi;
  struct counter_kind k;

  printf("cpucycles version %s\n", cpucycles_version());
  fflush(stdout);
  cpucycles_tracesetup();
  printf("cpucycles persecond %lld\n", cpucycles_persecond());
  printf("cpucycles implementation %s\n", cpucycles_implementation());
  k = kind_of(cpucycles_implementation());
  spread();
  observed(&lo, &hi);
  notes(cpucycles_implementation(), k.kind, cpucycles_persecond(), lo, hi);
  trust_and_crosscore(cpucycles_implementation(), k);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    perror("cpucycles-info: writing output");
    return 1;
  }
  return 0;
}
