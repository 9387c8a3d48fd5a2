/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* osclock.c: the OS clock the selection measures other clocks against. */
#define _POSIX_C_SOURCE 200809L
/* gettimeofday is XSI: FreeBSD hides it under _POSIX_C_SOURCE alone. */
#define _XOPEN_SOURCE 700
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <time.h>
#include <sys/time.h>
#endif
#include "internal.h"

#ifdef _WIN32
/* Windows: the performance counter, which is monotonic and, since
   Windows 7, never fails. MinGW's clock_gettime lives in winpthread, a
   DLL the library must not make its users ship. */
long long cpucycles_os_ns(void)
{
  LARGE_INTEGER t, f;
  long long s;
  if (!QueryPerformanceCounter(&t) || !QueryPerformanceFrequency(&f) || f.QuadPart <= 0) return 0;
  /* Whole seconds and the rest apart: t * 10^9 overflows after some
     days at the usual 10 MHz. */
  s = t.QuadPart / f.QuadPart;
  return s * 1000000000LL + (t.QuadPart - s * f.QuadPart) * 1000000000LL / f.QuadPart;
}
#else
long long cpucycles_os_ns(void)
{
  struct timespec ts;
  struct timeval tv;

  /* CLOCK_MONOTONIC does not jump when the wall clock is set; old systems
     without it still have gettimeofday. */
  if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
  if (gettimeofday(&tv, 0) == 0)
    return tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL;
  return 0;
}
#endif
