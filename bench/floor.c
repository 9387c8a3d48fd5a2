/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* floor.c: the least a first call can cost on this machine, timed in a
   fresh process as the first call is (bench.c compares the two). A
   selection that keeps its rules cannot do without:
   - the guard's minimal system calls: one sigprocmask that unblocks the
     four fault signals and returns the mask, four sigactions that install
     a handler and return the old one in the same call, and, at the end,
     four that put the old ones back and one that puts the mask back;
   - on Linux, the perf probe: one perf_event_open of the generic hardware
     cycle event, which either fails (no PMU: every perf counter is then
     ruled out at once) or opens (closed again here);
   - the 1000-read test of the winner: 1000 reads, each compared with the
     one before for the smallest step.
   They are timed in that order, as a first call meets them. Usage:
   floor NAME, the counter the library chose (cpucycles_implementation()),
   set up before the clock starts and released after. Output:
     floor TOTAL_NS GUARD_NS PERF_NS READS_NS */
#define _GNU_SOURCE /* syscall() */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#include "perfabi.h"
#endif
#include "internal.h"
#include "stats.h"

#define CALLS 1000
static const int faults[4] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };

static void on_fault(int sig, siginfo_t *info, void *context)
{
  (void)sig;
  (void)info;
  (void)context;
}

static struct sigaction handler, old[4];
static sigset_t unblock, mask;

static void guard_up(void)
{
  int i;
  sigprocmask(SIG_UNBLOCK, &unblock, &mask);
  for (i = 0; i < 4; ++i) sigaction(faults[i], &handler, &old[i]);
}

static void guard_down(void)
{
  int i;
  sigprocmask(SIG_SETMASK, &mask, 0);
  for (i = 3; i >= 0; --i) sigaction(faults[i], &old[i], 0);
}

static void perf_probe(void)
{
#ifdef __linux__
  struct perfabi_attr attr;
  long fd;
  memset(&attr, 0, sizeof attr);
  attr.type = PERFABI_TYPE_HARDWARE;
  attr.size = sizeof attr;
  attr.config = PERFABI_COUNT_HW_CPU_CYCLES;
  attr.pinned = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERFABI_FLAG_FD_CLOEXEC);
  if (fd >= 0) close((int)fd);
#endif
}

/* The smallest step of CALLS readings, as the selection's test takes it. */
static long long reads(long long (*read)(void))
{
  long long previous = read(), now, d, step = 0;
  int i;
  for (i = 1; i < CALLS; ++i) {
    now = read();
    d = now - previous;
    if (d < 0) return -1;
    if (d > 0 && (step == 0 || d < step)) step = d;
    previous = now;
  }
  return step;
}

int main(int argc, char **argv)
{
  const struct cpucycles_counter *c = 0;
  struct cpucycles_setup s;
  long long t0, t1, t2, t3, t4, step;
  int i;

  for (i = 0; argc == 2 && i < cpucycles_noptions; ++i)
    if (strcmp(cpucycles_options[i].name, argv[1]) == 0) c = cpucycles_options[i].counter;
  if (!c) {
    fprintf(stderr, "usage: floor NAME (a counter compiled here)\n");
    return 1;
  }
  memset(&s, 0, sizeof s);
  if (c->setup(&s) != 0) {
    fprintf(stderr, "floor: %s does not set up here\n", argv[1]);
    return 1;
  }
  handler.sa_sigaction = on_fault;
  handler.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&handler.sa_mask);
  sigemptyset(&unblock);
  for (i = 0; i < 4; ++i) sigaddset(&unblock, faults[i]);

  /* The first bench_ns() binds clock_gettime before the clock starts. */
  t0 = bench_ns();
  t0 = bench_ns();
  guard_up();
  t1 = bench_ns();
  perf_probe();
  t2 = bench_ns();
  step = reads(c->read);
  t3 = bench_ns();
  guard_down();
  t4 = bench_ns();
  if (c->release) c->release();
  if (step <= 0) {
    fprintf(stderr, "floor: %s did not move in %d reads\n", argv[1], CALLS);
    return 1;
  }
  printf("floor %lld %lld %lld %lld\n", t4 - t0, (t1 - t0) + (t4 - t3), t2 - t1, t3 - t2);
  return fflush(stdout) == 0 ? 0 : 1;
}
