/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* iqm.h: the interquartile mean cpucycles-info prints on its iqm line.
   A header and nothing else, so that cpucycles-info.c and its test
   (test/info/iqm.c) share the one computation without another object in
   the build. */
#ifndef IQM_H
#define IQM_H
#include <stdlib.h>

static inline int iqm_order(const void *a, const void *b)
{
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

/* v[0..n) sorted in place, then the mean of its middle half: the n/4
   smallest and the n/4 largest left out, the rest averaged and rounded to
   the nearest integer, a half upwards (so -2.5 gives -2, 2.5 gives 3).
   n > 0; the sum of the middle must fit in a long long. */
static inline long long iqm(long long *v, int n)
{
  int cut = n / 4, count = n - 2 * cut, i;
  long long sum = 0, twice, den = 2LL * count, q;

  qsort(v, (size_t)n, sizeof v[0], iqm_order);
  for (i = cut; i < n - cut; ++i) sum += v[i];
  /* floor((2 sum + count) / (2 count)): C's division truncates towards
     zero, so a negative quotient with a remainder is one too high. */
  twice = 2 * sum + count;
  q = twice / den;
  if (twice % den != 0 && twice < 0) --q;
  return q;
}
#endif
