/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* latethreads.c: threads started long after the first call agree with
   their creator. Through the public API only, on whatever counter the
   library picks here: this is the check that a 32-bit counter's extension
   gives every thread the same count on real hardware or a full system
   emulator, where no synthetic counter stands in.

   usage: latethreads [seconds ...]   (default: 0.01 1)

   After the first call the program measures the count's rate against the
   OS clock. Then, for each delay: it sleeps that long, reads (the
   creator's reading), and starts THREADS threads at once. Checks:
   - across the delay, the creator's count moved by the rate times the
     elapsed time, within TOLERANCE (where that window is narrower than a
     wrap of a 32-bit counter, so a wrap too many or too few shows;
     otherwise the check is skipped and says why);
   - each thread's first reading is within one expected delta of the
     creator's: the expected delta is the rate times the OS time from
     just before the creator's reading to just after the thread's (an
     upper bound of the time between the two readings), and the reading
     must lie between the creator's and twice that above it, plus SLACK
     cycles for a counter that moves in steps. A wrap too many or too few
     is 2^32 off, far outside while the threads start within a wrap;
   - the creator's reading after joining them is at least every reading
     they handed back. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cpucycles.h>
#include "check.h"

#define THREADS 4
#define READS 1000
#define TOLERANCE 0.01     /* of the rate: its measurement and the clocks' drift */
#define SLACK 1000         /* cycles: a counter that moves in steps */
#define RATE_NS 50000000LL /* the rate's measurement interval */
#define WRAP 4294967296.0

static long long os_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ns(long long ns)
{
  struct timespec ts;
  ts.tv_sec = (time_t)(ns / 1000000000);
  ts.tv_nsec = (long)(ns % 1000000000);
  while (nanosleep(&ts, &ts) != 0) {}
}

/* A reading and the OS clock just before and just after it. */
struct stamp {
  long long before, count, after;
};

static void stamp(struct stamp *s)
{
  s->before = os_ns();
  s->count = cpucycles();
  s->after = os_ns();
}

struct thread {
  pthread_t id;
  struct stamp first;
  long long last, decreases;
};

static void *reader(void *arg)
{
  struct thread *th = arg;
  long long now;
  int i;
  stamp(&th->first);
  th->last = th->first.count;
  th->decreases = 0;
  for (i = 1; i < READS; ++i) {
    now = cpucycles();
    th->decreases += now < th->last;
    th->last = now;
  }
  return 0;
}

static double rate; /* counts per ns */

/* The creator's count across the delay, against the clock. */
static void across(const struct stamp *prev, const struct stamp *now, double delay)
{
  double lo = rate * (double)(now->before - prev->after) * (1 - TOLERANCE) - SLACK;
  double hi = rate * (double)(now->after - prev->before) * (1 + TOLERANCE) + SLACK;
  double moved = (double)(now->count - prev->count);
  if (hi - lo >= WRAP / 2) {
    SKIP("after %g s: the creator's count moved by %.0f; at %.0f per second the window "
         "%.0f...%.0f is wider than half a 32-bit wrap, so it could not tell a wrap", delay,
         moved, rate * 1e9, lo, hi);
    return;
  }
  CHECK(moved >= lo && moved <= hi,
        "after %g s: the creator's count moved by %.0f, expected %.0f...%.0f (%+.3f wraps off "
        "the middle)", delay, moved, lo, hi, (moved - (lo + hi) / 2) / WRAP);
}

/* Returns the creator's stamp after the delay, for the next one. */
static struct stamp after_delay(const struct stamp *prev, double delay)
{
  struct thread th[THREADS];
  struct stamp creator, back;
  long long worst_low = 0, worst_high = 0, handed = 0, decreases = 0;
  double worst_ratio = 0;
  int i, n, bad = 0;

  sleep_ns((long long)(delay * 1e9));
  stamp(&creator);
  for (n = 0; n < THREADS; ++n)
    if (pthread_create(&th[n].id, 0, reader, &th[n]) != 0) break;
  for (i = 0; i < n; ++i) pthread_join(th[i].id, 0);
  stamp(&back);

  across(prev, &creator, delay);
  for (i = 0; i < n; ++i) {
    long long delta = th[i].first.count - creator.count;
    double expected = rate * (double)(th[i].first.after - creator.before);
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
    if (i == 0 || th[i].last > handed) handed = th[i].last;
    decreases += th[i].decreases;
  }
  if (bad)
    CHECK(0, "after %g s: %d of %d new threads read outside 0...one expected delta above their "
          "creator: %lld against at most %lld (%+.3f wraps)", delay, bad, n, worst_low,
          worst_high, (double)worst_low / WRAP);
  else
    CHECK(n == THREADS, "after %g s: %d new threads' first readings within one expected delta "
          "of their creator's (the largest %.2f expected deltas above it)", delay, n,
          worst_ratio);
  CHECK(decreases == 0, "after %g s: each new thread's %d readings never decrease (%lld did)",
        delay, READS, decreases);
  CHECK(back.count >= handed, "after %g s: the creator, after joining, reads at least what its "
        "threads read last (%+lld)", delay, back.count - handed);
  return back;
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
  /* The perf_event counters count each thread's own cycles, not time:
     a new thread starts near 0 and a sleeping one stands still
     (doc/counters.md, "Perf events and threads"), so threads share no
     count to agree on. */
  if (strstr(cpucycles_implementation(), "perf")) {
    SKIP("latethreads: %s counts each thread's own cycles; threads share no count",
         cpucycles_implementation());
    return 0;
  }
  stamp(&s0);
  sleep_ns(RATE_NS);
  stamp(&s1);
  rate = (double)(s1.count - s0.count) /
         ((double)(s1.after - s0.before + s1.before - s0.after) / 2);
  printf("# %s, %.0f per second measured (estimate %lld)\n", cpucycles_implementation(),
         rate * 1e9, cpucycles_persecond());
  CHECK(s1.count >= s0.count, "the count does not go back over %lld ms (%+lld)",
        RATE_NS / 1000000, s1.count - s0.count);
  if (rate < 0) rate = 0;

  prev = s1;
  for (i = 0; i < ndelays; ++i) prev = after_delay(&prev, strtod(delays[i], 0));
  CHECK_DONE();
}
