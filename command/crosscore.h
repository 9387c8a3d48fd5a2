/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* crosscore.h: whether a counter agrees with itself across CPUs.
   Two threads, each pinned to one CPU of a pair, pass readings back and
   forth through shared memory; a reading taken after seeing the other's
   was taken later in time, so each handoff bounds the offset between the
   two CPUs' counters. */
#ifndef CROSSCORE_H
#define CROSSCORE_H
#include <stdio.h>

/* A reading of the counter under test. cpu is the CPU the calling thread
   was pinned to (a real counter ignores it; a test's synthetic one adds
   an offset of its choosing for that CPU). */
typedef long long crosscore_read_fn(void *ctx, int cpu);

struct crosscore_pair {
  int a, b;            /* the CPUs */
  int pin_error;       /* 0, or the errno of pinning a thread to a or b */
  /* b's counter minus a's at the same instant lies in lo...hi (each known
     only after a handoff that way: a to b gives hi, b to a gives lo) */
  long long lo, hi;
  int have_lo, have_hi;
  long long handoffs;  /* readings answered by the other CPU */
  long long backwards; /* answers below the reading they answered */
  long long worst;     /* the largest such step back */
  long long ns;        /* how long the pair was measured */
  int stalled;         /* a thread had not finished in time */
};

/* At most this many pairs: every pair of up to 6 CPUs, else the first CPU
   against 15 others spread over the list (the far ones included). */
#define CROSSCORE_PAIRS 15

/* The pairs to measure among cpus[0..n): their number, in pairs[k][0..1]. */
int crosscore_pairs(const int *cpus, int n, int pairs[CROSSCORE_PAIRS][2]);

/* Handoffs enough for tight bounds: the fastest round trip among this
   many is what makes them so. */
#define CROSSCORE_HANDOFFS 1000

/* Measures one pair until min_ns have passed and CROSSCORE_HANDOFFS
   handoffs (both ways together) were seen, or max_ns have passed, thread
   start included: fills *p and returns 0, or returns an errno value when
   the threads could not be started. A thread still running 20 ms after
   max_ns (its CPU taken) makes the pair stalled: it is let go to any CPU,
   and if it has not finished 20 ms later either, left behind to stop as
   soon as it runs: read and ctx must then stay valid while the process
   lives. */
int crosscore_pair(crosscore_read_fn *read, void *ctx, int a, int b, long long min_ns,
                   long long max_ns, struct crosscore_pair *p);

/* The crosscore lines (doc/trust.md) for measured pairs p[0..np) among n
   CPUs. */
void crosscore_report(FILE *out, const struct crosscore_pair *p, int np, int n);

/* Everything cpucycles-info says of the counter impl across cpus[0..n):
   why the check does not apply (no_counter: it reads 0; per_thread: each
   thread counts its own cycles; n <= 1), else the measurement and its
   report, a few milliseconds a pair. */
void crosscore_info(FILE *out, const char *impl, int no_counter, int per_thread,
                    crosscore_read_fn *read, void *ctx, const int *cpus, int n);
#endif
