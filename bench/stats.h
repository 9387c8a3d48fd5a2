/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* stats.h: the summary the benchmark reports for a set of samples. */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stdio.h>

struct bench_summary {
  double median, iqr; /* iqr: third quartile minus first */
};

/* Readings are taken in rounds of BENCH_READS differences, alternating
   between the sources measured. */
#define BENCH_ROUNDS 20
#define BENCH_READS 1000

/* The mean of x[0..n): for back-to-back differences, the span of the
   readings over their count, which resolves below a counter's step. */
double bench_mean(const double *x, long n);

/* Sorts x in place. n must be at least 1. */
void bench_summarize(double *x, long n, struct bench_summary *s);

/* A figure without trailing noise: 21, 52.4, 0.5 (one decimal at most). */
void bench_print_figure(FILE *f, double v);

/* Fills out[0..n) with the differences of the n+1 back-to-back readings
   in tmp, times scale, keeping only the low 32 bits of each difference
   when only32. The caller takes the readings in a loop of its own,
   `for (j = 0; j <= n; ++j) tmp[j] = READ;`, so that the floor's inline
   instruction and the call through the public pointer are measured as
   written, not behind a call of ours. */
void bench_diffs(double *out, const long long *tmp, long n, double scale, int only32);

/* Nanoseconds of CLOCK_MONOTONIC. */
long long bench_ns(void);

#endif
