/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* default-qpc: Windows' performance counter, QueryPerformanceCounter,
   scaled to cycles. Windows backs it with the TSC where that is invariant
   and with a platform timer elsewhere, and states its rate; since
   Windows 10 that is mostly 10 MHz, whatever the clock behind it, so it
   is treated as an OS clock of known resolution, as default-monotonic
   is on other systems. The read is a call into KERNEL32 (a few dozen
   cycles when the TSC is behind it, no system call). */
#if !defined(_WIN32)
#error "needs Windows (QueryPerformanceCounter)"
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include "counter.h"

static long long qpc_read(void)
{
  LARGE_INTEGER t;
  if (!QueryPerformanceCounter(&t)) return 0;
  return (long long)t.QuadPart;
}

__attribute__((cold)) static int qpc_setup(struct cpucycles_setup *s)
{
  LARGE_INTEGER f, t;
  if (!QueryPerformanceFrequency(&f) || f.QuadPart <= 0 || !QueryPerformanceCounter(&t))
    return cpucycles_refuse(s, CPUCYCLES_REFUSED_OSCLOCK, (int)GetLastError(), 0, 0);
  s->kind = CPUCYCLES_OSCLOCK;
  s->hz = (long long)f.QuadPart;
  return 0;
}

COUNTER_DEFINE(qpc_read, qpc_setup, 0);
