/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* startup.c: process start with the library, against without it. Runs
   three builds of start.c in turn, RUNS times each: linked with no
   library, with an empty one, with ours (none of them calls it). A run's
   figures: the wall time from before posix_spawn() to the reaped exit,
   and the CPU time the kernel charged the child (user and system, page
   faults included), which leaves out the time other processes had the
   cores. Medians, since the machine is shared; the programs alternate
   so a change of load falls on all alike, and what a library adds is
   taken run by run against the run without one.
   Usage: startup RUNS NONE EMPTY LIBRARY

   The target: the library costs a process that never calls it at most
   what loading an empty library costs (mapping a file, its pages, its
   relocations), plus a quarter of that again for what any real library
   has (a second page of data, relocated pointers, thread-local storage,
   a few symbols to bind). Both are measured on the spot, so the target
   holds on a fast machine and on a slow one alike; on the CPU figure,
   which load disturbs least. */
#define _DEFAULT_SOURCE /* wait4 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "stats.h"

extern char **environ;

#define PROGRAMS 3
#define MAX_RUNS 1001

static double wall[PROGRAMS][MAX_RUNS], cpu[PROGRAMS][MAX_RUNS], added[PROGRAMS][MAX_RUNS];

static double tv_us(struct timeval tv) { return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec; }

/* One run: its wall and CPU microseconds; 0 when it ran to a clean exit. */
static int run_once(char *path, double *wall_us, double *cpu_us)
{
  char *args[2];
  struct rusage ru;
  long long t0, t1;
  int status;
  pid_t pid;
  args[0] = path;
  args[1] = 0;
  t0 = bench_ns();
  if (posix_spawn(&pid, path, 0, 0, args, environ) != 0) return -1;
  if (wait4(pid, &status, 0, &ru) != pid) return -1;
  t1 = bench_ns();
  *wall_us = (double)(t1 - t0) / 1000.0;
  *cpu_us = tv_us(ru.ru_utime) + tv_us(ru.ru_stime);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static const char *const label[PROGRAMS] = { "no library", "an empty library", "libcpucycles" };
static const char *const key[PROGRAMS] = { "none", "empty", "library" };
#define TARGET_SHARE 0.25

int main(int argc, char **argv)
{
  struct bench_summary w[PROGRAMS], c[PROGRAMS], a[PROGRAMS];
  int runs = argc == 5 ? atoi(argv[1]) : 0, i, r;
  double limit;

  if (runs < 1 || runs > MAX_RUNS) {
    fprintf(stderr, "usage: startup RUNS(1..%d) NONE EMPTY LIBRARY\n", MAX_RUNS);
    return 2;
  }
  /* One unmeasured run each: the files into the page cache. */
  for (r = -1; r < runs; ++r)
    for (i = 0; i < PROGRAMS; ++i)
      if (run_once(argv[i + 2], &wall[i][r < 0 ? 0 : r], &cpu[i][r < 0 ? 0 : r]) != 0) {
        fprintf(stderr, "startup: %s did not run to a clean exit\n", argv[i + 2]);
        return 1;
      }
  /* What a library added, run by run: against the run without one just
     before it, so that a change of load between runs mostly cancels. */
  for (i = 1; i < PROGRAMS; ++i)
    for (r = 0; r < runs; ++r) added[i][r] = cpu[i][r] - cpu[0][r];
  for (i = 0; i < PROGRAMS; ++i) {
    bench_summarize(wall[i], runs, &w[i]);
    bench_summarize(cpu[i], runs, &c[i]);
    if (i) bench_summarize(added[i], runs, &a[i]);
  }
  printf("process start of a program that never calls the library, %d runs each (medians;\n"
         "CPU: the user and system time charged to the process):\n", runs);
  for (i = 0; i < PROGRAMS; ++i) {
    printf("  %-18s wall ", label[i]);
    bench_print_figure(stdout, w[i].median);
    printf(" us, CPU ");
    bench_print_figure(stdout, c[i].median);
    printf(" us");
    if (i) {
      printf(", adding ");
      bench_print_figure(stdout, a[i].median);
      printf(" us");
    }
    printf("\n");
  }
  printf("\n");
  for (i = 0; i < PROGRAMS; ++i) {
    printf("bench start=%s runs=%d median=", key[i], runs);
    bench_print_figure(stdout, w[i].median);
    printf(" iqr=");
    bench_print_figure(stdout, w[i].iqr);
    printf(" cpu-median=");
    bench_print_figure(stdout, c[i].median);
    printf(" cpu-iqr=");
    bench_print_figure(stdout, c[i].iqr);
    if (i) {
      printf(" added-cpu=");
      bench_print_figure(stdout, a[i].median);
    }
    printf(" unit=microseconds\n");
  }
  limit = a[1].median * (1 + TARGET_SHARE);
  printf("bench target=start added-cpu=");
  bench_print_figure(stdout, a[2].median);
  printf(" limit=");
  bench_print_figure(stdout, limit);
  printf(" met=%s unit=microseconds\n", a[2].median <= limit ? "yes" : "no");
  return fflush(stdout) == 0 ? 0 : 1;
}
