/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* os-macos.c: what macOS reports, through sysctl (see os.h). */
#if !(defined(__APPLE__) && defined(__MACH__))
#error "os-macos.c is for macOS"
#endif
#include <stdint.h>
#include <sys/types.h>
#include <sys/sysctl.h>
#include "internal.h"
#include "os.h"

/* A sysctl number, which the kernel gives as 32 or 64 bits. */
static long long sysctl_number(const char *name)
{
  union {
    uint64_t u64;
    uint32_t u32;
  } v;
  size_t len = sizeof v;

  v.u64 = 0;
  if (sysctlbyname(name, &v, &len, 0, 0) != 0) return 0;
  if (len == sizeof v.u64) return v.u64 <= INT64_MAX ? (long long)v.u64 : 0;
  if (len == sizeof v.u32) return (long long)v.u32;
  return 0;
}

/* hw.cpufrequency is the nominal core clock; Intel Macs have it. Apple
   silicon has none (its cores change clock per cluster), and
   hw.tbfrequency there is the 24 MHz timer's rate, not the core's, so it
   is not used: the chain goes on to the environment and the default. */
long long cpucycles_os_persecond(const char *root)
{
  long long v;
  if (*root) return 0;
  v = sysctl_number("hw.cpufrequency");
  return v >= CPUCYCLES_PERSECOND_MIN && v <= CPUCYCLES_PERSECOND_MAX ? v : 0;
}

/* macOS has no switch for user-mode RDPMC; the guarded probe decides. */
int cpucycles_os_rdpmc_open(void)
{
  return -1;
}

/* No PowerPC macOS is built for. */
long long cpucycles_os_timebase(void)
{
  return 0;
}
