/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* rate.c: how fast a clock ticks, measured against the OS clock: for the
   selection's counters of unknown rate and for the 32-bit extension of the
   one it chose. */
#include "internal.h"

/* One reading of a clock bracketed by two OS clock readings; the tightest
   bracket of three, so a preemption or an emulator's hiccup is not taken
   for the clock's time. */
struct bracket {
  long long ticks, mid, width;
};

static void bracket(long long (*read)(void), struct bracket *b)
{
  int i;
  b->width = -1;
  for (i = 0; i < 3; ++i) {
    long long before = cpucycles_os_ns(), ticks = read(), after = cpucycles_os_ns();
    if (after < before) continue;
    if (b->width < 0 || after - before < b->width) {
      b->ticks = ticks;
      b->mid = before + (after - before) / 2;
      b->width = after - before;
    }
  }
}

/* Ticks per second of a clock of unknown rate, against the OS clock. The
   interval doubles until the brackets and the one-tick resolution bound
   the error by 2e-5, so a steady clock is done in well under a millisecond
   and an emulated one stops by ~50 ms. Returns 0 when it cannot tell. */
#define RATE_ERROR 2e-5
long long cpucycles_measure_rate(long long (*read)(void), int only32)
{
  struct bracket b0, b1;
  long long interval;
  double rate = 0;

  bracket(read, &b0);
  if (b0.width < 0) return 0;
  for (interval = 100000; interval <= 25600000; interval *= 2) {
    long long ticks, ns;
    double error;
    while (cpucycles_os_ns() - b0.mid < interval) {}
    bracket(read, &b1);
    if (b1.width < 0) return 0;
    ns = b1.mid - b0.mid;
    ticks = only32 ? (long long)(unsigned int)(b1.ticks - b0.ticks) : b1.ticks - b0.ticks;
    if (ns <= 0 || ticks <= 0) return 0;
    rate = (double)ticks * 1e9 / (double)ns;
    error = (double)(b0.width + b1.width) / 2 / (double)ns + 1.0 / (double)ticks;
    if (error <= RATE_ERROR) break;
  }
  return rate < 9.2e18 ? (long long)rate : 0;
}

/* The scale of a clock of unknown rate (counter.h): persecond over its
   measured rate, snapped to a ratio clocks really have. The estimate is
   asked only once the clock has a rate. */
int cpucycles_scale_measured(struct cpucycles_scale *scale, long long (*read)(void), int only32,
                             struct cpucycles_persecond_source *ps, long long *hz)
{
  *hz = cpucycles_measure_rate(read, only32);
  return *hz <= 0 || cpucycles_scale_snap(scale, (double)cpucycles_persecond_of(ps) / (double)*hz);
}
