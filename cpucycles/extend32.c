/* extend32.c: 64-bit counts from a counter that keeps only 32 bits. */
#include "internal.h"

void cpucycles_extend32_start(struct cpucycles_extend32 *e, unsigned int now, long long ns)
{
  e->value = now;
  e->last = now;
  e->ns = ns;
}

/* Between two readings the counter advanced by delta (mod 2^32) plus some
   whole number of wraps. The OS clock says roughly how many cycles passed;
   the number of wraps is the one that brings delta closest to that. This
   stays right as long as the estimate is off by less than 2^31 cycles over
   the gap, which a 32-bit counter cannot do better than anyway. */
long long cpucycles_extend32(struct cpucycles_extend32 *e, unsigned int now, long long ns,
                             long long persecond)
{
  unsigned int delta = now - e->last;
  long long dns = ns - e->ns;
  double expected, wraps;
  unsigned long long w = 0;

  if (dns > 0) {
    expected = (double)dns * ((double)persecond / 1e9);
    wraps = (expected - (double)delta) / 4294967296.0 + 0.5;
    if (wraps >= 1) {
      if (wraps > 1e9) wraps = 1e9; /* a clock jump must not overflow */
      w = (unsigned long long)wraps;
    }
  }
  e->value += delta + (w << 32);
  e->last = now;
  if (dns > 0) e->ns = ns;
  return (long long)e->value;
}
