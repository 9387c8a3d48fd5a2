/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* persecond.c: what the first cpucycles_persecond() costs a fresh process
   that has already made its first cpucycles() call (the estimate is made
   then, unless the selection needed it), as most benchmark programs do.

   Usage: persecond [RUNNER...] PROGRAM, where PROGRAM is this program:
   it runs RUNNER... PROGRAM once in PROCESSES fresh processes and reports
   the median, in a line for people and in `bench ...` key=value lines.
   With the argument "once" it is one such process: it makes the first
   call, then times the first cpucycles_persecond() from inside with
   CLOCK_MONOTONIC and with the thread's CPU-time clock (which leaves out
   the time other processes had the core), and prints
     persecond WALL_NANOSECONDS CPU_NANOSECONDS
   Linked against the shared library, as most users are. */
#define _DEFAULT_SOURCE /* getloadavg */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cpucycles.h>
#include "child.h"
#include "stats.h"

#define PROCESSES 41
#define CHILD_SECONDS 60

/* Issue 21's target for the first cpucycles_persecond() on the 2-core
   development VM. Missing it is reported, not an error: a loaded machine
   misses it without the library being wrong. */
#define TARGET_PERSECOND_US 15.0

static long long cpu_ns(void)
{
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int once(void)
{
  long long before, after, cpu_before, cpu_after, v;

  cpucycles();
  /* The first bench_ns() binds clock_gettime before the clock starts. */
  before = bench_ns();
  cpu_before = cpu_ns();
  before = bench_ns();
  v = cpucycles_persecond();
  after = bench_ns();
  cpu_after = cpu_ns();
  printf("persecond %lld %lld %lld\n", after - before, cpu_after - cpu_before, v);
  return fflush(stdout) == 0 ? 0 : 1;
}

/* "what median M us, IQR I us" and then end. */
static void spread(const char *what, const struct bench_summary *s, const char *end)
{
  printf("%s median ", what);
  bench_print_figure(stdout, s->median);
  printf(" us, IQR ");
  bench_print_figure(stdout, s->iqr);
  printf(" us%s", end);
}

static void figure(const char *what, const struct bench_summary *s)
{
  printf("bench %s link=shared processes=%d timing=inside median=", what, PROCESSES);
  bench_print_figure(stdout, s->median);
  printf(" iqr=");
  bench_print_figure(stdout, s->iqr);
  printf(" unit=microseconds\n");
}

int main(int argc, char **argv)
{
  double us[PROCESSES], cpu_us[PROCESSES];
  struct bench_summary wall, cpu;
  char **child, out[256];
  long long value = 0;
  double load = -1;
  int i;

  if (argc == 2 && strcmp(argv[1], "once") == 0) return once();
  if (argc < 2) {
    fprintf(stderr, "usage: persecond [RUNNER...] PROGRAM\n");
    return 1;
  }
  if (getloadavg(&load, 1) != 1) load = -1;
  child = calloc((size_t)argc + 1, sizeof *child);
  if (!child) {
    fprintf(stderr, "persecond: out of memory\n");
    return 1;
  }
  memcpy(child, argv + 1, (size_t)(argc - 1) * sizeof *child);
  child[argc - 1] = "once";
  for (i = 0; i < PROCESSES; ++i) {
    long long ns, cns;
    if (bench_child(child, out, sizeof out, CHILD_SECONDS) != 0 ||
        sscanf(out, "persecond %lld %lld %lld", &ns, &cns, &value) != 3) {
      fprintf(stderr, "persecond: %s did not report a first cpucycles_persecond()\n", argv[argc - 1]);
      free(child);
      return 1;
    }
    us[i] = (double)ns / 1000;
    cpu_us[i] = (double)cns / 1000;
  }
  free(child);
  bench_summarize(us, PROCESSES, &wall);
  bench_summarize(cpu_us, PROCESSES, &cpu);

  printf("\nfirst cpucycles_persecond() after the first call, in %d fresh processes\n"
         "(shared library, timed inside each; it said %lld; load average %.2f at the start):\n",
         PROCESSES, value, load);
  spread("wall (CLOCK_MONOTONIC)", &wall, "; ");
  spread("CPU time of the thread", &cpu, "\n\n");
  figure("persecond", &wall);
  figure("persecond-cpu", &cpu);
  printf("bench target=persecond median=");
  bench_print_figure(stdout, wall.median);
  printf(" limit=%g met=%s unit=microseconds\n", TARGET_PERSECOND_US,
         wall.median <= TARGET_PERSECOND_US ? "yes" : "no");
  return 0;
}
