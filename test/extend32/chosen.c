/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* chosen.c: the read the library hands out for a 32-bit counter, through
   the same wrapper real counters get (arm32-cortex, mips64-cc), on every
   host the suite runs on. No emulator offers a working 32-bit counter, so
   a synthetic one stands in: it runs at 10^10 ticks a second and wraps
   every 430 ms, fast enough to wrap within a test. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h> /* Sleep: MinGW's nanosleep is winpthread's */
#else
#include <time.h>
#endif
#include "check.h"
#include "internal.h"

#define RATE 10000000000LL /* ticks per second of the synthetic counter */
#define ATTEMPTS 3

static long long start_ns;
static long long fast32_read(void)
{
  return (long long)(unsigned int)(0xffffff00u + (unsigned long long)(cpucycles_os_ns() - start_ns) * 10);
}

#ifdef _WIN32
static void pause_ms(long ms)
{
  Sleep((DWORD)ms);
}
#else
static void pause_ms(long ms)
{
  struct timespec ts = { 0, ms * 1000000L };
  while (nanosleep(&ts, &ts) != 0) {}
}
#endif

struct run {
  long long decreases, count;
  double ratio;
};

/* Counts from read against the OS clock: back to back for 150 ms, where
   no reading may go down, then once more after a 500 ms pause, longer
   than a wrap, which only the OS clock can account for. */
static void measure(long long (*read)(void), double factor, struct run *r)
{
  long long first, last, now, ns0, ns1;

  r->decreases = 0;
  ns0 = cpucycles_os_ns();
  first = last = read();
  while (cpucycles_os_ns() - ns0 < 150000000) {
    now = read();
    r->decreases += now < last;
    last = now;
  }
  pause_ms(500);
  last = read();
  ns1 = cpucycles_os_ns();
  r->count = last - first;
  r->ratio = (double)r->count / ((double)(ns1 - ns0) * 1e-9 * (double)RATE * factor);
}

static int good(const struct run *r)
{
  return r->decreases == 0 && r->count > 4294967296LL && r->ratio > 0.99 && r->ratio < 1.01;
}

/* The total must match the elapsed time within 1%; a missed or extra wrap
   is off by two thirds. Like any 32-bit counter, the synthetic one can be fooled
   by the thread sleeping more than half a wrap (215 ms) between its read
   and the OS clock's, which a loaded machine may do: a run that went
   wrong is tried again, up to ATTEMPTS runs. A broken extension fails
   every run. */
static void check(long long (*read)(void), double factor, const char *what)
{
  struct run r;
  int attempt = 0;

  do measure(read, factor, &r);
  while (!good(&r) && ++attempt < ATTEMPTS);
  if (attempt == ATTEMPTS) attempt = ATTEMPTS - 1;
  CHECK(r.decreases == 0, "%s: back-to-back readings across wraps never decrease (%lld; run %d)",
        what, r.decreases, attempt + 1);
  CHECK(r.count > 4294967296LL, "%s: the count passes 2^32 (%lld)", what, r.count);
  CHECK(r.ratio > 0.99 && r.ratio < 1.01, "%s: counted ticks match the elapsed time (ratio %f)",
        what, r.ratio);
}

int main(void)
{
  struct cpucycles_trial t;
  struct cpucycles_setup s;
  long long (*read)(void);

  memset(&t, 0, sizeof t);
  /* names the extension, as a 32-bit counter's setup does */
  cpucycles_setup_only32(&s);
  t.only32 = s.only32;
  t.extension = s.extension;
  t.scale.whole = 1;
  start_ns = cpucycles_os_ns();
  read = cpucycles_chosen(fast32_read, &t, RATE);
  CHECK(read != fast32_read, "a 32-bit counter is not handed out raw");
  check(read, 1.0, "extended");

  /* A 32-bit counter that also needs scaling: persecond is twice its
     rate, so each tick counts two cycles. */
  t.scale.whole = 2;
  t.scaled = 1;
  read = cpucycles_chosen(fast32_read, &t, 2 * RATE);
  check(read, 2.0, "extended and scaled");
  return check_done();
}
