/* chosen.c: the read the library hands out for a 32-bit counter, through
   the same wrapper real counters get (arm32-cortex, mips64-cc), on every
   host the suite runs on. No emulator offers a working 32-bit counter, so
   a synthetic one stands in: it runs at 2*10^10 ticks a second and wraps
   every 215 ms, fast enough to wrap twice within half a second, slow
   enough that a preemption under 100 ms cannot fool the extension. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include <time.h>
#include "check.h"
#include "internal.h"

#define RATE 20000000000LL /* ticks per second of the synthetic counter */

static long long start_ns;
static long long fast32_read(void)
{
  return (long long)(unsigned int)(0xffffff00u + (unsigned long long)(cpucycles_os_ns() - start_ns) * 20);
}

static void pause_ms(long ms)
{
  struct timespec ts = { 0, ms * 1000000L };
  while (nanosleep(&ts, &ts) != 0) {}
}

/* Counts from read against the OS clock: back to back for 250 ms, where
   no reading may go down, then once more after a 300 ms pause, longer
   than a wrap, which only the OS clock can account for. The total must
   match the elapsed time within 1%; a missed or extra wrap is off by 40%. */
static void check(long long (*read)(void), double factor, const char *what)
{
  long long first, last, now, ns0, ns1, decreases = 0;
  double expected, ratio;

  ns0 = cpucycles_os_ns();
  first = last = read();
  while (cpucycles_os_ns() - ns0 < 250000000) {
    now = read();
    decreases += now < last;
    last = now;
  }
  pause_ms(300);
  last = read();
  ns1 = cpucycles_os_ns();
  expected = (double)(ns1 - ns0) * 1e-9 * (double)RATE * factor;
  ratio = (double)(last - first) / expected;
  CHECK(decreases == 0, "%s: back-to-back readings across wraps never decrease (%lld)", what, decreases);
  CHECK(last - first > 4294967296LL, "%s: the count passes 2^32 (%lld)", what, last - first);
  CHECK(ratio > 0.99 && ratio < 1.01, "%s: counted ticks match the elapsed time (ratio %f)", what, ratio);
}

int main(void)
{
  struct cpucycles_trial t;
  long long (*read)(void);

  memset(&t, 0, sizeof t);
  t.only32 = 1;
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
  CHECK_DONE();
}
