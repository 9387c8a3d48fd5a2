/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* sysctl.c: a number the kernel gives by name, for the OS layers that
   ask sysctlbyname (os-macos.c, os-freebsd.c; see os.h). */
#include <stdint.h>
#include <sys/types.h>
#include <sys/sysctl.h>
#include "os.h"

/* The kernel keeps it as a 32-bit int (FreeBSD's hw.clockrate, the
   cpufreq driver's freq) or a 64-bit number (FreeBSD's machdep.tsc_freq,
   a timecounter's frequency; macOS's hw.cpufrequency); the length it
   answers with says which. 0 when there is no such name or the value is
   not a positive number. */
long long cpucycles_sysctl_number(const char *name)
{
  union {
    uint64_t u64;
    int32_t i32;
  } v;
  size_t len = sizeof v;

  v.u64 = 0;
  if (sysctlbyname(name, &v, &len, 0, 0) != 0) return 0;
  if (len == sizeof v.u64) return v.u64 <= INT64_MAX ? (long long)v.u64 : 0;
  if (len == sizeof v.i32) return v.i32 > 0 ? (long long)v.i32 : 0;
  return 0;
}
