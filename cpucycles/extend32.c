/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* extend32.c: 64-bit counts from a counter that keeps only 32 bits. */
#include "internal.h"

void cpucycles_extend32_start(struct cpucycles_extend32 *e, unsigned int now, long long ns)
{
  e->value = now;
  e->last = now;
  e->ns = ns;
}

/* Between the base and this reading the counter advanced by delta (mod
   2^32) plus some whole number of wraps. The OS clock and the counter's
   own rate say roughly how many ticks passed; the number of wraps is the
   one that brings delta closest to that. It is right while the prediction
   is off by less than 2^31 ticks, half a wrap.

   The reading may also be a little older than the base: its counter read
   can be executed before the look at the base that a thread of another
   core has just moved. Then the clock predicts a small negative count and
   the nearest number of wraps is -1, which makes the reading the few
   ticks before the base that it is, not almost a whole wrap after it.
   Beyond 2^30 wraps either way the clock must have jumped by years: the
   count is clamped there so that it cannot overflow. */
unsigned long long cpucycles_extend32_at(const struct cpucycles_extend32 *base, unsigned int now,
                                         long long ns, long long tickrate)
{
  unsigned int delta = now - base->last;
  double expected = (double)(ns - base->ns) * ((double)tickrate / 1e9);
  double wraps = (expected - (double)delta) / 4294967296.0 + 0.5;
  long long w;

  if (wraps < -1073741824.0) wraps = -1073741824.0;
  if (wraps > 1073741824.0) wraps = 1073741824.0;
  w = (long long)wraps;
  if ((double)w > wraps) --w; /* floor, for the negative side too */
  return base->value + delta + ((unsigned long long)w << 32);
}

/* The same, for a reader that keeps its own state: the reading becomes
   the base of the next one. */
long long cpucycles_extend32(struct cpucycles_extend32 *e, unsigned int now, long long ns,
                             long long tickrate)
{
  e->value = cpucycles_extend32_at(e, now, ns, tickrate);
  e->last = now;
  if (ns > e->ns) e->ns = ns;
  return (long long)e->value;
}
