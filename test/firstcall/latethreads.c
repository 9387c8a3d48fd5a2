/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* latethreads.c: threads and a child started long after the first call
   read a counter that works for them, and, where the counter is shared,
   agree with their creator. Through the public API only, on whatever
   counter the library picks here: this is the check that a 32-bit
   counter's extension gives every thread the same count on real hardware
   or a full system emulator, where no synthetic counter stands in.

   usage: latethreads [seconds ...]   (default: 0.01 1)

   Two kinds of counter. A shared one (the TSC, a timebase, an OS clock)
   counts time, the same for every thread. A perf_event one counts each
   thread's own cycles: a new thread starts near 0 and a sleeping one
   stands still (doc/counters.md, "Perf events and threads"). The checks
   are the same code for both: a count moves at least while its thread
   runs and at most while time passes. For a shared counter both are the
   OS's monotonic clock; for a per-thread one the first is the thread's
   own CPU time, which the rate is then measured against and the busy
   times are counted in, and the tolerance is looser (a user-only cycle
   count leaves out the kernel time that the CPU time holds, and threads
   may run on cores at other frequencies).

   After the first call the program measures the count's rate, busy all
   the while. Then, for each delay: it sleeps that long, reads (the
   creator's reading), and starts THREADS threads at once, each busy for
   BUSY_NS of the clock. Checks:
   - across the delay, the creator's count moved as the rate says, within
     the tolerance (where that window is narrower than a wrap of a 32-bit
     counter, so a wrap too many or too few shows; otherwise the check is
     skipped and says why);
   - each thread's own readings: they never decrease, never read 0 after
     its first, never stand still for a SLICE_NS of the clock, and move
     over the busy time as the rate says, within the tolerance;
   - shared counters only (a per-thread one has no count in common, and
     those checks skip with that reason): each thread's first reading is
     within one expected delta of the creator's: the expected delta is
     the rate times the OS time from just before the creator's reading to
     just after the thread's (an upper bound of the time between the two
     readings), and the reading must lie between the creator's and twice
     that above it, plus SLACK cycles for a counter that moves in steps. A
     wrap too many or too few is 2^32 off, far outside while the threads
     start within a wrap; and the creator's reading after joining them is
     at least every reading they handed back.
   After the last delay a forked child does what a thread does: its own
   readings, and for a shared counter its first one against the parent's. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cpucycles.h>
#include "check.h"
#include "forkable.h"

#define THREADS 4
#define READS 1000         /* at least, per thread */
#define BUSY_NS 5000000LL  /* of the clock, per thread */
#define SLICE_NS 1000000LL /* of the clock: the count must move in each */
#define TOLERANCE 0.01     /* of the rate: its measurement and the clocks' drift */
#define SLACK 1000         /* cycles: a counter that moves in steps */
/* Below the rate, for a per-thread counter: cores at other frequencies,
   and the kernel's share of the thread's CPU time, which a user-mode
   count leaves out. In a loaded arm64 guest under qemu-system (2026-11-28,
   two guests on two cores) a new thread's 5 ms counted 405239 where the
   rate times its CPU time gave 2.9 million: the kernel had most of it.
   The low end only has to catch a count that stalls or loses a wrap. */
#define PER_THREAD_TOLERANCE 0.9
/* Above the rate, for a per-thread counter: it counts user-mode cycles
   only, and its rate is measured against CPU time that includes the
   kernel's, so a window where the kernel took less of the time counts
   more per ns (a real arm64 kernel under qemu-system: 13% past 1.5x). The
   high end only has to catch a count that runs off. */
#define PER_THREAD_ABOVE 3.0
/* A per-thread count is also allowed up to this many per ns of the clock
   over a window short enough: the rate above can come out far low when
   the creator's measurement was mostly kernel time (CI, a loaded arm64
   guest under qemu-system: a new thread counted 6x the creator's rate, the
   creator 1.4x its window across a delay). No core counts 10 per ns, and a
   wrap or a garbage read still lands far above. */
#define PER_THREAD_CEILING 10.0
#define PER_THREAD_SLACK 1000000 /* cycles of kernel time in the CPU time */
#define RATE_NS 50000000LL /* the rate's measurement interval */
#define WRAP 4294967296.0

static int per_thread;           /* the counter counts each thread's own cycles */
/* The clock of the rate, the busy times and the slices: the thread's CPU
   time for a per-thread counter. */
static clockid_t clock_id = CLOCK_MONOTONIC;
static double tolerance = TOLERANCE, above = TOLERANCE, slack = SLACK;
static double rate;              /* counts per ns of that clock */

static long long ns_of(clockid_t id)
{
  struct timespec ts;
  clock_gettime(id, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long clock_ns(void) { return ns_of(clock_id); }

static void sleep_ns(long long ns)
{
  struct timespec ts;
  ts.tv_sec = (time_t)(ns / 1000000000);
  ts.tv_nsec = (long)(ns % 1000000000);
  while (nanosleep(&ts, &ts) != 0) {}
}

/* A reading, bracketed by the monotonic clock outside and the thread's
   CPU time inside (for a shared counter the monotonic clock is both). */
struct stamp {
  long long wall0, cpu0, count, cpu1, wall1;
};

static void stamp(struct stamp *s)
{
  s->wall0 = ns_of(CLOCK_MONOTONIC);
  s->cpu0 = per_thread ? clock_ns() : s->wall0;
  s->count = cpucycles();
  s->cpu1 = per_thread ? clock_ns() : 0;
  s->wall1 = ns_of(CLOCK_MONOTONIC);
  if (!per_thread) s->cpu1 = s->wall1;
}

/* The narrowest of a few stamps: the rate is measured between two, and a
   preemption inside one (on a loaded machine, milliseconds) would put its
   reading's time off by half of it. */
static void tight_stamp(struct stamp *s)
{
  struct stamp t;
  int i;
  stamp(s);
  for (i = 0; i < 4; ++i) {
    stamp(&t);
    if (t.wall1 - t.wall0 < s->wall1 - s->wall0) *s = t;
  }
}

/* One thread's (or the child's) readings over its busy time. */
struct own {
  pthread_t id;
  struct stamp first, end;
  long reads, slices;
  long long decreases, zeros, still; /* still: slices the count stood still through */
};

static void busy(struct own *o)
{
  long long prev, mark, next_slice, now;
  int i;

  o->reads = o->slices = 0;
  o->decreases = o->zeros = o->still = 0;
  stamp(&o->first);
  prev = mark = o->first.count;
  next_slice = o->first.cpu1 + SLICE_NS;
  for (;;) {
    long long t;
    for (i = 0; i < 64; ++i) {
      now = cpucycles();
      o->decreases += now < prev;
      o->zeros += now == 0;
      prev = now;
    }
    o->reads += 64;
    t = clock_ns();
    if (t >= next_slice) {
      ++o->slices;
      o->still += prev == mark;
      mark = prev;
      next_slice = t + SLICE_NS;
    }
    if (t - o->first.cpu1 >= BUSY_NS && o->reads >= READS) break;
  }
  stamp(&o->end);
}

static void *reader(void *arg)
{
  busy(arg);
  return 0;
}

/* The count between two stamps against the rate; 1 when it is within
   the window, 0 when not, -1 when the window is wider than half a wrap
   (*lo, *hi and *moved are set in every case). A count moves at least
   while its thread runs and at most while time passes: the window's low
   end is held against the CPU time, its high end against the monotonic
   clock. That also admits a perf counter whose thread lost its event
   and counts on with the OS clock, as the library then does. The high
   end uses the rate ceiling (per ns; 0 for none) instead where that is
   higher and the window stays narrow enough to tell a wrap. */
static int moved_as_expected(const struct stamp *a, const struct stamp *b, double ceiling,
                             double *lo, double *hi, double *moved)
{
  double wall = (double)(b->wall1 - a->wall0);
  *lo = rate * (double)(b->cpu0 - a->cpu1) * (1 - tolerance) - slack;
  *hi = rate * wall * (1 + above) + slack;
  if (ceiling * wall + slack > *hi && ceiling * wall + slack - *lo < WRAP / 2)
    *hi = ceiling * wall + slack;
  *moved = (double)(b->count - a->count);
  if (*hi - *lo >= WRAP / 2) return -1;
  return *moved >= *lo && *moved <= *hi;
}

/* The creator's count across the delay, against the clock. */
static void across(const struct stamp *prev, const struct stamp *now, double delay)
{
  double lo, hi, moved;
  int r = moved_as_expected(prev, now, per_thread ? PER_THREAD_CEILING : 0, &lo, &hi, &moved);
  if (r < 0) {
    SKIP("after %g s: the creator's count moved by %.0f; at %.0f per second the window "
         "%.0f...%.0f is wider than half a 32-bit wrap, so it could not tell a wrap", delay,
         moved, rate * 1e9, lo, hi);
    return;
  }
  CHECK(r, "after %g s: the creator's count moved by %.0f, expected %.0f...%.0f (%+.3f wraps off "
        "the middle)", delay, moved, lo, hi, (moved - (lo + hi) / 2) / WRAP);
}

/* Each reader's own readings; who names them ("after 1 s: 4 new threads"). */
static void own_readings(const struct own *o, int n, const char *who)
{
  long long decreases = 0, zeros = 0, still = 0;
  long reads = 0, slices = 0;
  double lo = 0, hi = 0, moved = 0, worst_off = 0;
  int i, outside = 0, wide = 0;

  for (i = 0; i < n; ++i) {
    double l, h, m, off;
    int r = moved_as_expected(&o[i].first, &o[i].end, per_thread ? PER_THREAD_CEILING : 0, &l, &h,
                              &m);
    decreases += o[i].decreases;
    zeros += o[i].zeros;
    still += o[i].still;
    reads += o[i].reads;
    slices += o[i].slices;
    if (r < 0) {
      ++wide;
      continue;
    }
    off = m < l ? l - m : m > h ? m - h : 0;
    if (!r) ++outside;
    if (i == 0 || off >= worst_off) {
      worst_off = off;
      lo = l;
      hi = h;
      moved = m;
    }
  }
  CHECK(n > 0 && decreases == 0 && zeros == 0 && still == 0,
        "%s: %ld readings over %ld slices of %lld ms never decrease (%lld did), read 0 (%lld) or "
        "stand still through a slice (%lld)", who, reads, slices, SLICE_NS / 1000000, decreases,
        zeros, still);
  if (wide == n) {
    SKIP("%s: at %.0f per second the window of a busy time is wider than half a 32-bit wrap",
         who, rate * 1e9);
    return;
  }
  CHECK(outside == 0, "%s: the count over each busy %lld ms moved as the rate says (%d of %d "
        "outside; the farthest %.0f, expected %.0f...%.0f)", who, BUSY_NS / 1000000, outside,
        n - wide, moved, lo, hi);
}

/* Shared counters only: each reader's first reading against the
   creator's, and the creator's after joining against what they handed
   back (back 0: no such reading, as after a fork). */
static void with_creator(const struct stamp *creator, const struct stamp *back,
                         const struct own *o, int n, const char *who)
{
  long long worst_low = 0, worst_high = 0, handed = 0;
  double worst_ratio = 0;
  int i, bad = 0;

  if (per_thread) {
    SKIP("%s: %s counts each thread's own cycles, so there is no count in common to compare "
         "with the creator's", who, cpucycles_implementation());
    return;
  }
  for (i = 0; i < n; ++i) {
    long long delta = o[i].first.count - creator->count;
    double expected = rate * (double)(o[i].first.wall1 - creator->wall0);
    double limit = 2 * expected + SLACK;
    if (delta < 0 || (double)delta > limit) {
      if (!bad++) {
        worst_low = delta;
        worst_high = (long long)limit;
      }
    } else if (expected > 0 && (double)delta / expected > worst_ratio) {
      worst_ratio = (double)delta / expected;
    }
    /* Counts may be negative (s390x's TOD clock has its top bit set). */
    if (i == 0 || o[i].end.count > handed) handed = o[i].end.count;
  }
  if (bad)
    CHECK(0, "%s: %d of %d read first outside 0...one expected delta above their creator: "
          "%lld against at most %lld (%+.3f wraps)", who, bad, n, worst_low, worst_high,
          (double)worst_low / WRAP);
  else
    CHECK(n > 0, "%s: the first reading of each (%d) within one expected delta of their "
          "creator's (the largest %.2f expected deltas above it)", who, n, worst_ratio);
  if (back)
    CHECK(back->count >= handed, "%s: the creator, after joining, reads at least what they "
          "read last (%+lld)", who, back->count - handed);
}

/* Returns the creator's stamp after the delay, for the next one. */
static struct stamp after_delay(const struct stamp *prev, double delay)
{
  struct own th[THREADS];
  struct stamp creator, back;
  char who[64];
  int i, n;

  sleep_ns((long long)(delay * 1e9));
  stamp(&creator);
  for (n = 0; n < THREADS; ++n)
    if (pthread_create(&th[n].id, 0, reader, &th[n]) != 0) break;
  for (i = 0; i < n; ++i) pthread_join(th[i].id, 0);
  stamp(&back);

  across(prev, &creator, delay);
  snprintf(who, sizeof who, "after %g s: %d new threads", delay, n);
  CHECK(n == THREADS, "after %g s: %d of %d threads started", delay, n, THREADS);
  own_readings(th, n, who);
  with_creator(&creator, &back, th, n, who);
  return back;
}

/* A child forked now does what a thread does, and says so itself; the
   parent checks that it finished. */
static void forked(void)
{
  struct stamp parent;
  struct own o;
  int status = -1;
  pid_t pid;

  if (!fork_works()) {
    SKIP("a child forked after the first call: fork() does not work here");
    return;
  }
  fflush(stdout);
  stamp(&parent);
  pid = fork();
  if (pid == 0) {
    check_failures = 0; /* the parent's are its own */
    busy(&o);
    own_readings(&o, 1, "a child forked after the first call");
    with_creator(&parent, 0, &o, 1, "a child forked after the first call");
    fflush(stdout);
    _exit(check_failures ? 1 : 0);
  }
  if (pid > 0) waitpid(pid, &status, 0);
  CHECK(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
        "the child forked after the first call ended well (status %#x)", status);
}

int main(int argc, char **argv)
{
  static const char *defaults[] = { "0.01", "1" };
  const char **delays = argc > 1 ? (const char **)argv + 1 : defaults;
  int ndelays = argc > 1 ? argc - 1 : 2, i;
  struct stamp s0, s1, prev;

  for (i = 0; i < ndelays; ++i) {
    char *end;
    double d = strtod(delays[i], &end);
    if (end == delays[i] || *end || !(d >= 0 && d <= 86400)) {
      fprintf(stderr, "latethreads: not a delay in seconds (0 to 86400): %s\n", delays[i]);
      return 2;
    }
  }

  cpucycles(); /* the first call: the selection */
  if (strstr(cpucycles_implementation(), "perf")) {
    struct timespec ts;
    per_thread = 1;
    clock_id = CLOCK_THREAD_CPUTIME_ID;
    tolerance = PER_THREAD_TOLERANCE;
    above = PER_THREAD_ABOVE;
    slack = PER_THREAD_SLACK;
    if (clock_gettime(clock_id, &ts) != 0) {
      SKIP("latethreads: %s counts each thread's own cycles, and this system has no CPU-time "
           "clock of a thread to hold them against", cpucycles_implementation());
      return 0;
    }
  }
  /* Busy, not asleep: a per-thread count stands still while its thread
     sleeps. */
  /* Mostly reads, as in busy(): a loop of CPU-time clock reads alone,
     a system call on some kernels, spends its time in the kernel, where a
     per-thread counter of user-mode cycles stands still. */
  tight_stamp(&s0);
  while (clock_ns() - s0.cpu1 < RATE_NS)
    for (i = 0; i < 64; ++i) (void)cpucycles();
  tight_stamp(&s1);
  rate = (double)(s1.count - s0.count) / ((double)(s1.cpu1 - s0.cpu0 + s1.cpu0 - s0.cpu1) / 2);
  printf("# %s, %.0f per second of %s measured (estimate %lld)\n", cpucycles_implementation(),
         rate * 1e9, per_thread ? "the thread's CPU time" : "the monotonic clock",
         cpucycles_persecond());
  CHECK(s1.count > s0.count, "the count moves over %lld ms of busy time (%+lld)",
        RATE_NS / 1000000, s1.count - s0.count);
  if (rate < 0) rate = 0;

  prev = s1;
  for (i = 0; i < ndelays; ++i) prev = after_delay(&prev, strtod(delays[i], 0));
  forked();
  return check_done();
}
