/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* stats.c: medians and quartiles of benchmark samples. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>
#include "stats.h"

static int compare(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The sample at fraction q of the sorted set, interpolating between the
   two neighbours so small sets (21 processes) get a fair quartile. */
static double quantile(const double *x, long n, double q)
{
  double pos = q * (double)(n - 1);
  long lo = (long)pos;
  double w = pos - (double)lo;
  if (lo + 1 >= n) return x[n - 1];
  return x[lo] + w * (x[lo + 1] - x[lo]);
}

void bench_summarize(double *x, long n, struct bench_summary *s)
{
  qsort(x, (size_t)n, sizeof x[0], compare);
  s->median = quantile(x, n, 0.5);
  s->iqr = quantile(x, n, 0.75) - quantile(x, n, 0.25);
}

double bench_mean(const double *x, long n)
{
  double sum = 0;
  long i;
  for (i = 0; i < n; ++i) sum += x[i];
  return sum / (double)n;
}

void bench_diffs(double *out, const long long *tmp, long n, double scale, int only32)
{
  long i;
  for (i = 0; i < n; ++i) {
    long long d = tmp[i + 1] - tmp[i];
    if (only32) d = (long long)(unsigned int)d;
    out[i] = (double)d * scale;
  }
}

void bench_print_figure(FILE *f, double v)
{
  long long tenths = (long long)(v < 0 ? v * 10 - 0.5 : v * 10 + 0.5);
  long long whole = tenths / 10, rest = tenths % 10;
  if (rest == 0) fprintf(f, "%lld", whole);
  else fprintf(f, "%s%lld.%lld", tenths < 0 && whole == 0 ? "-" : "", whole, rest < 0 ? -rest : rest);
}

long long bench_ns(void)
{
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
