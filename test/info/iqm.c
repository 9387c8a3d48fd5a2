/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* iqm.c: the interquartile mean of cpucycles-info's iqm line
   (command/iqm.h) on sets of differences whose answer is worked out here
   by hand: outliers at either end left out, unsorted input, rounding of
   halves and of negative means, and the input sorted afterwards. */
#include "check.h"
#include "iqm.h"

#define N 64

/* v[0..N) from a pattern: 16 low outliers, 32 middle values, 16 high
   outliers, interleaved so that the input is not sorted. */
static void fill(long long *v, long long low, const long long *middle, long long high)
{
  int i, lo = 0, mid = 0, hi = 0;
  for (i = 0; i < N; ++i) {
    if (i % 4 == 0) v[i] = low - lo++;
    else if (i % 4 == 2) v[i] = high + hi++ * 1000;
    else v[i] = middle[mid++];
  }
}

int main(void)
{
  long long v[N], middle[32];
  int i, sorted;

  /* Middle 32 all 21 (the TSC's step here), outliers 0 and huge. */
  for (i = 0; i < 32; ++i) middle[i] = 21;
  fill(v, 0, middle, 100000);
  CHECK(iqm(v, N) == 21, "iqm of 32 x 21 among outliers 0 and 100000.. is 21 (%lld)", iqm(v, N));

  /* Middle 16 x 20 and 16 x 30: mean 25, whatever the outliers. */
  for (i = 0; i < 32; ++i) middle[i] = i % 2 ? 20 : 30;
  fill(v, -5, middle, 1LL << 40);
  CHECK(iqm(v, N) == 25, "iqm of 16 x 20 and 16 x 30 is 25 (%lld)", iqm(v, N));
  sorted = 1;
  for (i = 1; i < N; ++i) sorted &= v[i - 1] <= v[i];
  CHECK(sorted, "iqm leaves its input sorted");

  /* Middle 1..32: sum 528, mean 16.5, rounded up to 17. */
  for (i = 0; i < 32; ++i) middle[i] = 32 - i;
  fill(v, 0, middle, 50);
  CHECK(iqm(v, N) == 17, "iqm of 1..32 (mean 16.5) rounds to 17 (%lld)", iqm(v, N));

  /* Middle 31 x 10 and one 11: mean 10.03, rounded down to 10. */
  for (i = 0; i < 32; ++i) middle[i] = i == 7 ? 11 : 10;
  fill(v, 0, middle, 50);
  CHECK(iqm(v, N) == 10, "iqm of 31 x 10 and 11 rounds to 10 (%lld)", iqm(v, N));

  /* Middle 16 x 10 and 16 x 11: mean 10.5, rounded up to 11. */
  for (i = 0; i < 32; ++i) middle[i] = 10 + i % 2;
  fill(v, 0, middle, 50);
  CHECK(iqm(v, N) == 11, "iqm of 16 x 10 and 16 x 11 (mean 10.5) is 11 (%lld)", iqm(v, N));

  /* Negative: middle 16 x -3 and 16 x -2 (mean -2.5, a half upwards: -2),
     and 24 x -3 with 8 x -2 (mean -2.75: -3). */
  for (i = 0; i < 32; ++i) middle[i] = i % 2 ? -3 : -2;
  fill(v, -100, middle, 0);
  CHECK(iqm(v, N) == -2, "iqm of 16 x -3 and 16 x -2 (mean -2.5) is -2 (%lld)", iqm(v, N));
  for (i = 0; i < 32; ++i) middle[i] = i % 4 ? -3 : -2;
  fill(v, -100, middle, 0);
  CHECK(iqm(v, N) == -3, "iqm of 24 x -3 and 8 x -2 (mean -2.75) is -3 (%lld)", iqm(v, N));

  /* Not the median: sixteen 0s, then 1..16 and 18..33, then sixteen
     large ones. The median (the upper middle, sorted[32]) is 18; the
     middle half sums to 561 - 17 = 544, an iqm of 17. */
  for (i = 0; i < 32; ++i) middle[i] = i + 1 + (i >= 16);
  fill(v, 0, middle, 1000);
  for (i = 0; i < N; ++i)
    if (v[i] < 0) v[i] = 0;
  CHECK(iqm(v, N) == 17, "iqm of 1..16 and 18..33 is 17, not their median 18 (%lld)", iqm(v, N));

  /* A short set: n = 4 leaves out one at each end. */
  {
    long long w[4] = {9, 1, 5, 7};
    CHECK(iqm(w, 4) == 6, "iqm of {9, 1, 5, 7} is mean(5, 7) = 6 (%lld)", iqm(w, 4));
  }
  return check_done();
}
