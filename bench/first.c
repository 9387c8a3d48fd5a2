/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* first.c: the first cpucycles() of a fresh process, timed from inside
   with CLOCK_MONOTONIC, and with the thread's CPU-time clock, which leaves
   out the time other processes had the core (on a busy machine, most of
   the spread). Linked against the shared library, as most users are. With
   the argument "hot" it then also measures later calls through the shared
   library's public pointer; with "runtime" the first call is made beside
   fault handlers shaped like the JVM's and Go's (SA_SIGINFO, SA_ONSTACK,
   SA_RESTART, every signal in sa_mask), which must cost it nothing.
   Output, for bench.c:
     first WALL_NANOSECONDS CPU_NANOSECONDS
     hot MEDIAN IQR MEAN   (cycles, as bench.c measures them) */
#define _GNU_SOURCE /* SA_ONSTACK */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cpucycles.h>
#include "stats.h"

static long long readings[BENCH_READS + 1];

static long long cpu_ns(void)
{
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
static double diffs[BENCH_ROUNDS * BENCH_READS], means[BENCH_ROUNDS];

static void runtime_handler(int sig, siginfo_t *info, void *context)
{
  (void)sig, (void)info, (void)context;
}

static void runtime_handlers(void)
{
  static const int faults[4] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };
  struct sigaction sa;
  int i;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = runtime_handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigfillset(&sa.sa_mask);
  for (i = 0; i < 4; ++i) sigaction(faults[i], &sa, 0);
}

int main(int argc, char **argv)
{
  struct bench_summary s, mean;
  long long before, after, cpu_before, cpu_after;
  int r, j;

  if (argc > 1 && strcmp(argv[1], "runtime") == 0) runtime_handlers();

  /* The first bench_ns() binds clock_gettime before the clock starts. */
  before = bench_ns();
  cpu_before = cpu_ns();
  before = bench_ns();
  cpucycles();
  after = bench_ns();
  cpu_after = cpu_ns();
  printf("first %lld %lld\n", after - before, cpu_after - cpu_before);
  if (argc > 1 && strcmp(argv[1], "hot") == 0) {
    for (r = 0; r < BENCH_ROUNDS; ++r) {
      double *x = diffs + r * BENCH_READS;
      for (j = 0; j <= BENCH_READS; ++j) readings[j] = cpucycles();
      bench_diffs(x, readings, BENCH_READS, 1.0, 0);
      means[r] = bench_mean(x, BENCH_READS);
    }
    bench_summarize(diffs, BENCH_ROUNDS * BENCH_READS, &s);
    bench_summarize(means, BENCH_ROUNDS, &mean);
    printf("hot %f %f %f\n", s.median, s.iqr, mean.median);
  }
  return fflush(stdout) == 0 ? 0 : 1;
}
