/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* default-mach: mach_absolute_time() on macOS and other Mach systems,
   usually a 24 MHz off-core clock; mach_timebase_info gives its rate. */
#if !(defined(__APPLE__) && defined(__MACH__))
#error "needs macOS (mach_absolute_time)"
#endif
#include <mach/mach_time.h>
#include "counter.h"

static long long mach_read(void)
{
  return (long long)mach_absolute_time();
}

__attribute__((cold)) static int mach_setup(struct cpucycles_setup *s)
{
  mach_timebase_info_data_t tb;
  /* ticks * numer / denom = nanoseconds */
  if (mach_timebase_info(&tb) != KERN_SUCCESS || tb.numer == 0 || tb.denom == 0) return -1;
  s->kind = CPUCYCLES_RATE;
  s->hz = (long long)(1e9 * (double)tb.denom / (double)tb.numer);
  return 0;
}

COUNTER_DEFINE(mach_read, mach_setup, 0);
