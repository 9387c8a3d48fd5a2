/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* scale.c: fixed-point scaling of tick counts to cycles. */
#include "internal.h"

#define TWO32 4294967296.0

/* Refuses factors that are not positive or too large to be exact. Both
   parts are at most 2^32: they convert through long long, exactly as
   through unsigned long long, and in one x86-64 instruction rather than a
   dozen. */
int cpucycles_scale_from_ratio(struct cpucycles_scale *s, double ratio)
{
  double whole;
  if (!(ratio > 0) || ratio >= TWO32) return -1;
  whole = (double)(long long)ratio;
  s->whole = (unsigned long long)(long long)whole;
  s->frac = (unsigned long long)(long long)((ratio - whole) * TWO32 + 0.5);
  if (s->frac >= 4294967296ULL) { s->whole += 1; s->frac = 0; }
  if (s->whole == 0 && s->frac == 0) return -1;
  return 0;
}

/* A measured rate is trusted only when persecond/rate lands near m/2^k:
   crystals and PLLs give such ratios, and anything else means the clock is
   not what it seems. "Near" is the measurement's own accuracy (2e-4 of the
   ratio), and only grids at least five times coarser than that count:
   a finer grid would be near every number. The coarsest grid that fits
   gives the scaling, so measurement noise does not leak into it. */
#define SNAP_TOLERANCE 2e-4
int cpucycles_scale_snap(struct cpucycles_scale *s, double ratio)
{
  double tolerance = ratio * SNAP_TOLERANCE;
  int k;
  if (!(ratio > 0) || ratio >= TWO32 / 256) return -1;
  for (k = 0; k <= 8; ++k) {
    double step = 1.0 / (double)(1 << k);
    double m = (double)(unsigned long long)(ratio / step + 0.5);
    double off = ratio - m * step;
    if (step < 5 * tolerance) break;
    if (m >= 1 && off <= tolerance && off >= -tolerance)
      return cpucycles_scale_from_ratio(s, m * step);
  }
  return -1;
}

/* Through long long, as above: whole is at most 2^32, frac below it. */
double cpucycles_scale_value(const struct cpucycles_scale *s)
{
  return (double)(long long)s->whole + (double)(long long)s->frac / TWO32;
}

/* floor(t * (whole + frac/2^32)) modulo 2^64, from three 64-bit products:
   t*frac/2^32 = hi*frac + lo*frac/2^32 where t = hi*2^32 + lo, and lo*frac
   fits in 64 bits because both factors are below 2^32. */
long long cpucycles_scale_apply(const struct cpucycles_scale *s, long long t)
{
  unsigned long long u = (unsigned long long)t;
  unsigned long long hi = u >> 32, lo = u & 0xffffffffULL;
  return (long long)(u * s->whole + hi * s->frac + ((lo * s->frac) >> 32));
}
