/* cpucycles-info: what the library chose on this machine, and how it
   behaves: the selection trace, the cycles-per-second estimate, the spread
   of back-to-back readings, and cycles per second as observed against the
   OS clock over growing busy loops. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cpucycles.h>

#define DIFFS 64

static long long microseconds(void)
{
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static int compare(const void *a, const void *b)
{
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

static void median(void)
{
  long long t[DIFFS + 1], d[DIFFS], sorted[DIFFS], m;
  int i;

  for (i = 0; i <= DIFFS; ++i) t[i] = cpucycles();
  for (i = 0; i < DIFFS; ++i) sorted[i] = d[i] = t[i + 1] - t[i];
  qsort(sorted, DIFFS, sizeof sorted[0], compare);
  m = sorted[DIFFS / 2];
  printf("cpucycles median %lld ", m);
  for (i = 0; i < DIFFS; ++i) printf("%+lld", d[i] - m);
  printf("\n");
}

/* Both clock readings are truncated to whole microseconds, so the true
   elapsed time lies strictly between us-1 and us+1: the two bounds. */
static void observed(void)
{
  long long loops;
  for (loops = 1024; loops <= 1048576; loops *= 2) {
    volatile long long sink = 0;
    long long i, us, cycles;
    long long us0 = microseconds(), c0 = cpucycles();
    for (i = 0; i < loops; ++i) sink += i;
    cycles = cpucycles() - c0;
    us = microseconds() - us0;
    if (us < 3) continue;
    printf("cpucycles observed persecond %lld...%lld with %lld loops %lld microseconds\n",
           cycles * 1000000 / (us + 1), (cycles * 1000000 + us - 2) / (us - 1), loops, us);
  }
}

int main(void)
{
  printf("cpucycles version %s\n", cpucycles_version());
  fflush(stdout);
  cpucycles_tracesetup();
  printf("cpucycles persecond %lld\n", cpucycles_persecond());
  printf("cpucycles implementation %s\n", cpucycles_implementation());
  median();
  observed();
  if (fflush(stdout) != 0 || ferror(stdout)) {
    perror("cpucycles-info: writing output");
    return 1;
  }
  return 0;
}
