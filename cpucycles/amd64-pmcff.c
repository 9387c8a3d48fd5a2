/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* amd64-pmcff: Intel's fixed-function core-cycle counter through RDPMC,
   without perf_event. Needs 64-bit Intel with architectural performance
   monitoring version 2+, an OS that already lets every process use RDPMC
   (Linux: /sys/devices/cpu/rdpmc set to 2) and someone keeping the fixed
   counter running; otherwise RDPMC faults or the counter stands still and
   the selection drops it. Anything that reprograms the counter (the NMI
   watchdog on Linux) makes it jump. */
#if !defined(__x86_64__)
#error "amd64-pmcff is for 64-bit x86"
#endif
#include "counter.h"
#include "os.h"
#include "rdpmc.h"
#ifdef __linux__
#include "perf.h"
#endif

static long long pmcff_read(void)
{
  return (long long)cpucycles_rdpmc(CPUCYCLES_RDPMC_FIXED_CYCLES);
}

__attribute__((cold)) static int pmcff_setup(struct cpucycles_setup *s)
{
  int version, fixed;
  s->access = CPUCYCLES_ACCESS_RDPMC_ALL;
#ifdef __linux__
  /* The rdpmc files are attributes of the x86 core PMU, registered only
     when the kernel can count cycles on it: once perf_event has refused
     the generic cycle event as absent (which it does only after every
     PMU refused it, see perf.c), or is not there at all, neither file
     exists, and the two failed lookups cost microseconds. */
  version = cpucycles_perf_no_hardware();
  if (version) return cpucycles_refuse(s, CPUCYCLES_REFUSED_PERF, version, 0, 1);
#endif
  /* Where the OS says RDPMC would fault, not even the CPUIDs below are
     worth their cost (microseconds each in a virtual machine). */
  if (cpucycles_os_rdpmc_open() == 0) return cpucycles_refuse(s, CPUCYCLES_REFUSED_CLOSED, 2, 0, 0);
  if (!cpucycles_fixed_cycles_present(&version, &fixed))
    return cpucycles_refuse(s, CPUCYCLES_REFUSED_CPUID, version, fixed, 0);
  s->kind = CPUCYCLES_CORE;
  return 0;
}

COUNTER_DEFINE(pmcff_read, pmcff_setup, 0);
