/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* crosscore.c: the cross-core measurement of cpucycles-info
   (command/crosscore.c) on synthetic counters whose CPUs disagree by a
   known offset: the monotonic clock in nanoseconds, plus an offset for
   the second CPU of the pair. The offset measured must hold the known
   one within its bounds, a zero offset must show none, and a large one
   must show readings stepping back; a reading that takes too long must
   leave its thread behind rather than hold the caller. Then the pairs
   chosen among many CPUs, the report's verdicts on results written
   here, and the cases where the check does not apply. */
#define _GNU_SOURCE /* sched_getcpu */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "check.h"
#include "capture.h"
#include "cpus.h"
#include "crosscore.h"

#define MS 1000000LL
/* bounds this close show a measurement, not a guess */
#define TIGHT (5 * MS)

static long long now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The known offset: CPU b's counter is ahead of CPU a's by offset. */
struct synthetic {
  int b;
  long long offset;
  int calls;
};

/* Offset chosen by the CPU the thread was pinned to (the hint). */
static long long by_hint(void *ctx, int cpu)
{
  struct synthetic *s = ctx;
  __atomic_add_fetch(&s->calls, 1, __ATOMIC_RELAXED);
  return now_ns() + (cpu == s->b ? s->offset : 0);
}

#ifdef __linux__
/* Offset chosen by the CPU the thread really runs on: right only if the
   measurement pinned it where it says. */
static long long by_cpu(void *ctx, int cpu)
{
  struct synthetic *s = ctx;
  (void)cpu;
  return now_ns() + (sched_getcpu() == s->b ? s->offset : 0);
}
#endif

/* Bounds both ways, from threads that both finished in time. */
static int both_ways(const struct crosscore_pair *p)
{
  return !p->stalled && p->have_lo && p->have_hi;
}

/* Whether the pair's two threads seldom ran at once: no bounds both
   ways, or the pair cut off at its time short of its handoffs. Under
   qemu-user on a loaded machine, threads that take turns on one CPU hand
   off once a time slice: bounds of a few such handoffs are that slice
   wide (CI: -17 ms...15 ms), and too close in time to cross. */
static int seldom_at_once(const struct crosscore_pair *p)
{
  return !both_ways(p) || p->handoffs < CROSSCORE_HANDOFFS;
}

/* Bounds both ways, the known offset between them, not so loose that
   they would hold any offset: a handoff here takes microseconds, and the
   fastest of a thousand bounds the offset. The counter is static: a
   thread left behind may read it after the call. A machine so busy that
   the two threads seldom ran at once gets four more tries; then, if the
   bounds are missing or wide for that reason, a skip. */
static void known(crosscore_read_fn *read, const char *how, int a, int b, long long offset)
{
  static struct synthetic s;
  struct crosscore_pair p;
  int err, tries = 0;

  s.b = b;
  s.offset = offset;
  do err = crosscore_pair(read, &s, a, b, 2 * MS, 50 * MS, &p);
  while (!err && !p.pin_error && seldom_at_once(&p) && ++tries < 5);
  CHECK(err == 0, "%s, offset %lld: the pair's threads start (%s)", how, offset,
        err ? strerror(err) : "started");
  if (err) return;
  if (!p.pin_error && seldom_at_once(&p) && !(both_ways(&p) && p.hi - p.lo < TIGHT)) {
    SKIP("crosscore: %s, offset %lld: five times the two threads seldom ran at once within "
         "50 ms (%lld handoffs%s): a machine this busy cannot measure", how, offset, p.handoffs,
         p.stalled ? ", a thread left behind" : "");
    return;
  }
  if (p.pin_error) {
    SKIP("crosscore: a thread cannot be pinned to cpu%d or cpu%d here (%s)", a, b,
         strerror(p.pin_error));
    return;
  }
  CHECK(p.have_lo && p.have_hi, "%s, offset %lld: bounds both ways (%lld handoffs)", how, offset,
        p.handoffs);
  CHECK(p.lo <= offset && offset <= p.hi, "%s, offset %lld: within the bounds %lld...%lld", how,
        offset, p.lo, p.hi);
  CHECK(p.hi - p.lo < TIGHT, "%s, offset %lld: bounds %lld...%lld closer than %lld ms (%lld "
        "handoffs)", how, offset, p.lo, p.hi, TIGHT / MS, p.handoffs);
  CHECK(p.ns < 500 * MS, "%s, offset %lld: measured in bounded time (%lld ns)", how, offset, p.ns);
  if (offset == 0) {
    CHECK(p.backwards == 0, "%s, offset 0: no reading below an earlier one (%lld)", how,
          p.backwards);
    CHECK(p.lo <= 0 && p.hi >= 0, "%s, offset 0: no offset shows", how);
  } else {
    /* a handoff faster than the offset sees the counter step back */
    CHECK(p.backwards > 0 && p.worst <= (offset < 0 ? -offset : offset),
          "%s, offset %lld: readings stepped back (%lld times, at most %lld)", how, offset,
          p.backwards, p.worst);
  }
}

/* CPU b's counter runs at twice the rate from the pair's start: the
   offset grows 1 ns a ns, so the later handoffs' lower bounds rise above
   the earlier ones' upper bounds by the time between them, less a round
   trip (a thousand handoffs or more span a thousand round trips). The
   bounds must cross, and the report must say so; a pair cut short whose
   bounds did not cross, after five tries, is a skip. */
static long long rate_start;
static long long by_rate(void *ctx, int cpu)
{
  struct synthetic *s = ctx;
  long long t = now_ns();
  return t + (cpu == s->b ? t - rate_start : 0);
}

static void two_rates(int a, int b)
{
  static struct synthetic s;
  struct crosscore_pair p;
  FILE *f;
  int err, tries = 0;

  s.b = b;
  do {
    rate_start = now_ns();
    err = crosscore_pair(by_rate, &s, a, b, 2 * MS, 50 * MS, &p);
  } while (!err && !p.pin_error && seldom_at_once(&p) && ++tries < 5);
  if (err || p.pin_error || (seldom_at_once(&p) && !(both_ways(&p) && p.lo > p.hi))) {
    SKIP("crosscore: two rates: the pair's threads seldom ran at once in five tries (%s, %lld "
         "handoffs)", err ? strerror(err) : "a busy machine", p.handoffs);
    return;
  }
  CHECK(p.lo > p.hi, "two rates: the bounds cross (%lld...%lld, %lld handoffs over %lld ns)",
        p.lo, p.hi, p.handoffs, p.ns);
  f = capture_start();
  crosscore_report(f, &p, 1, 2);
  capture_end(f);
  CHECK(capture_line("cpucycles crosscore pair-crossed ") &&
        capture_line("cpucycles crosscore unmeasured "),
        "two rates: the pair is named crossed, and no offset is given");
}

/* A reading that takes two seconds, far past the pair's time: the pair
   ends while the reading still sleeps, stalled, its thread left behind.
   Each try has its own flag, set when its reading is done (a thread of
   an earlier try may finish during a later one); the flag, not the time
   the call took, says whether the caller was held, so that a machine too
   busy to run the caller promptly does not fail it. The reading happens
   once both threads run, which a busy machine may not allow within the
   pair's time: up to three tries, then a skip. */
static long long sleepy(void *ctx, int cpu)
{
  struct timespec pause = {2, 0};
  (void)cpu;
  nanosleep(&pause, 0);
  __atomic_store_n((int *)ctx, 1, __ATOMIC_RELEASE);
  return now_ns();
}

static void stalled(int a, int b)
{
  static int read_done[3];
  struct crosscore_pair p;
  long long t0, took;
  int err, done, tries = 0;

  do {
    t0 = now_ns();
    err = crosscore_pair(sleepy, &read_done[tries], a, b, 2 * MS, 100 * MS, &p);
    done = __atomic_load_n(&read_done[tries], __ATOMIC_ACQUIRE);
    took = now_ns() - t0;
  } while (!err && !p.pin_error && !p.stalled && p.handoffs == 0 && ++tries < 3);
  if (!err && !p.pin_error && !p.stalled && p.handoffs == 0) {
    SKIP("crosscore: three times the two threads did not run at once within 100 ms, so no "
         "reading was taken: a machine this busy cannot show a stall");
    return;
  }
  CHECK(err == 0 && p.stalled && !(p.have_lo && p.have_hi),
        "a reading of two seconds: the pair is given up as stalled, without bounds both ways "
        "(%d, %d)", err, p.stalled);
  CHECK(!done, "a reading of two seconds: the pair ends before it, its thread left behind "
        "(%lld ms)", took / MS);
}

static void measured(void)
{
  int *cpus, n = cpus_allowed(&cpus);

  if (n < 2) {
    SKIP("crosscore: this process may run on %d CPU%s here: no pair to measure", n,
         n == 1 ? "" : "s (the system cannot say)");
    free(cpus);
    return;
  }
  stalled(cpus[0], cpus[n - 1]);
  known(by_hint, "the pinned CPU's offset", cpus[0], cpus[n - 1], 0);
  known(by_hint, "the pinned CPU's offset", cpus[0], cpus[n - 1], 20 * MS);
  known(by_hint, "the pinned CPU's offset", cpus[n - 1], cpus[0], -7 * MS);
  two_rates(cpus[0], cpus[n - 1]);
#ifdef __linux__
  known(by_cpu, "the running CPU's offset", cpus[0], cpus[n - 1], 0);
  known(by_cpu, "the running CPU's offset", cpus[0], cpus[n - 1], 20 * MS);
#endif
  free(cpus);
}

static void pairs(void)
{
  int cpus[100], p[CROSSCORE_PAIRS][2], i, k, n, distinct = 1, ascending = 1;

  for (i = 0; i < 100; ++i) cpus[i] = 2 * i + 1;
  n = crosscore_pairs(cpus, 2, p);
  CHECK(n == 1 && p[0][0] == 1 && p[0][1] == 3, "2 CPUs: the one pair (%d)", n);
  n = crosscore_pairs(cpus, 1, p);
  CHECK(n == 0, "1 CPU: no pair (%d)", n);
  n = crosscore_pairs(cpus, 6, p);
  for (i = 0; i < n; ++i)
    for (k = 0; k < i; ++k)
      if (p[i][0] == p[k][0] && p[i][1] == p[k][1]) distinct = 0;
  CHECK(n == 15 && distinct, "6 CPUs: all 15 pairs, each once (%d)", n);
  n = crosscore_pairs(cpus, 7, p);
  CHECK(n == 6 && p[0][0] == 1 && p[0][1] == 3 && p[5][1] == 13,
        "7 CPUs: the first against each of the 6 others (%d)", n);
  n = crosscore_pairs(cpus, 100, p);
  for (i = 0; i < n; ++i) {
    if (p[i][0] != 1) ascending = 0;
    if (i && p[i][1] <= p[i - 1][1]) ascending = 0;
  }
  CHECK(n == 15 && ascending && p[0][1] > 1 && p[14][1] == 199,
        "100 CPUs: 15 pairs, the first CPU against others spread up to the last (%d, last %d)", n,
        n ? p[n - 1][1] : -1);
}

static struct crosscore_pair result(int a, int b, long long lo, long long hi, long long back)
{
  struct crosscore_pair p;
  memset(&p, 0, sizeof p);
  p.a = a;
  p.b = b;
  p.lo = lo;
  p.hi = hi;
  p.have_lo = p.have_hi = 1;
  p.handoffs = 1000;
  p.backwards = back;
  p.worst = back ? 250 : 0;
  p.ns = 2 * MS;
  return p;
}

static void report(void)
{
  struct crosscore_pair p[3];
  FILE *f;

  p[0] = result(0, 1, -100, 120, 0);
  f = capture_start();
  crosscore_report(f, p, 1, 2);
  capture_end(f);
  CAPTURED("cpucycles crosscore pair cpu0 cpu1 offset -100...120 handoffs 1000 backwards 0 ms 2.0",
       "one pair: its line");
  CAPTURED("cpucycles crosscore offset 10 cycles cpu0 cpu1 within -100...120 (1 pairs of 2 CPUs "
       "measured): no offset shows", "bounds around 0: no offset shows, the middle 10");
  CAPTURED("cpucycles crosscore backwards-none 0 of 1000 handoffs: ", "no backwards step");
  CAPTURED("cpucycles crosscore unpinned-ok 220: ", "unpinned ok, at the resolution 220");

  p[1] = result(0, 2, 300, 500, 0);
  p[2] = result(0, 3, -900, 900, 0);
  f = capture_start();
  crosscore_report(f, p, 3, 4);
  capture_end(f);
  CAPTURED("cpucycles crosscore offset 400 cycles cpu0 cpu2 within 300...500 (3 pairs of 4 CPUs "
       "measured): cpu2's counter runs ahead of cpu0's by 300 to 500 cycles",
       "the pair surely offset is the largest, over one whose loose bounds hold 0");
  CAPTURED("cpucycles crosscore unpinned-offset 500: ", "an offset without backwards steps");

  p[2] = result(0, 3, -4000, -3000, 7);
  f = capture_start();
  crosscore_report(f, p, 3, 4);
  capture_end(f);
  CAPTURED("cpucycles crosscore offset -3500 cycles cpu0 cpu3 within -4000...-3000 (", "behind by more");
  CAPTURED("cpucycles crosscore backwards 7 of 3000 handoffs, up to 250 cycles (cpu0 cpu3): ",
       "the backwards steps, counted over all pairs");
  CAPTURED("cpucycles crosscore unpinned-backwards 4000: ", "backwards steps: the worst verdict");

  memset(&p[0], 0, sizeof p[0]);
  p[0].a = 0;
  p[0].b = 1;
  p[0].have_hi = 1;
  p[0].handoffs = 1;
  p[1] = result(0, 2, 0, 0, 0);
  p[1].pin_error = EINVAL;
  p[2] = result(0, 3, -10, 10, 0);
  p[2].stalled = 1;
  f = capture_start();
  crosscore_report(f, p, 3, 4);
  capture_end(f);
  CAPTURED("cpucycles crosscore pair-unmeasured cpu0 cpu1 handoffs 1 ms 0.0: ", "bounds one way only");
  CAPTURED("cpucycles crosscore pair-unpinned cpu0 cpu2 (", "a CPU that refused the thread");
  CAPTURED("cpucycles crosscore pair-stalled cpu0 cpu3 ms 2.0: ", "a thread left behind: its "
           "bounds are not taken");
  CAPTURED("cpucycles crosscore unmeasured (3 pairs of 4 CPUs tried): ", "nothing measured: said so");

  p[0] = result(0, 1, 400, -200, 0);
  p[1] = result(0, 2, -50, 60, 0);
  f = capture_start();
  crosscore_report(f, p, 2, 3);
  capture_end(f);
  CAPTURED("cpucycles crosscore pair-crossed cpu0 cpu1 offset 400...-200 handoffs 1000 ms 2.0: ",
           "bounds that cross: named");
  CAPTURED("cpucycles crosscore offset 5 cycles cpu0 cpu2 within -50...60 (1 pairs of 3 CPUs ",
           "a crossed pair gives no offset: the other pair's is the verdict");
  CAPTURED("cpucycles crosscore unpinned-ok 110: ", "and the verdict is the other pair's");

  p[0] = result(0, 1, 400, -200, 0);
  f = capture_start();
  crosscore_report(f, p, 1, 2);
  capture_end(f);
  CAPTURED("cpucycles crosscore unmeasured (1 pairs of 2 CPUs tried): ",
           "a crossed pair alone: no offset is known");
}

static void not_applicable(void)
{
  struct synthetic s;
  int two[2] = {0, 1}, one[1] = {3};
  FILE *f;

  memset(&s, 0, sizeof s);
  f = capture_start();
  crosscore_info(f, "default-zero", 1, 0, by_hint, &s, two, 2);
  crosscore_info(f, "amd64-perfpmc", 0, 1, by_hint, &s, two, 2);
  crosscore_info(f, "amd64-tsc", 0, 0, by_hint, &s, one, 1);
  crosscore_info(f, "amd64-tsc", 0, 0, by_hint, &s, 0, 0);
  capture_end(f);
  CAPTURED("cpucycles crosscore no-counter default-zero: ", "the zero counter");
  CAPTURED("cpucycles crosscore per-thread amd64-perfpmc: ", "a per-thread counter: why not");
  CAPTURED("cpucycles crosscore one-cpu cpu3: ", "one CPU allowed");
  CAPTURED("cpucycles crosscore not-available (", "no affinity known");
  CHECK(s.calls == 0, "none of them reads the counter (%d reads)", s.calls);
}

int main(void)
{
  pairs();
  report();
  not_applicable();
  measured();
  return check_done();
}
