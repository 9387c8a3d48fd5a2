/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* arm64-pmc: the core's cycle counter, PMCCNTR_EL0, read with MRS.
   Needs 64-bit ARMv8-A and a kernel that lets user code read the PMU
   (PMUSERENR_EL0, off by default in Linux; a kernel module turns it on).
   Where it is off, the read raises SIGILL and the selection drops this
   counter.

   Linux 5.17 and later (those with /proc/sys/kernel/perf_user_access)
   manage PMUSERENR_EL0 themselves: they rewrite it whenever perf puts
   events on the PMU, turning user access off unless the running thread
   holds a user-access event; closing such an event can leave access on
   until perf next touches the PMU. Access seen there may be left over and
   gone at the next context switch, when the read would die by SIGILL, so
   the counter is not used on those kernels (arm64-perfpmc is). */
#if !defined(__aarch64__)
#error "arm64-pmc is for 64-bit ARM"
#endif
#ifdef __linux__
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>
#endif
#include "counter.h"

static long long pmc_read(void)
{
  long long t;
  __asm__ __volatile__("mrs %0, PMCCNTR_EL0" : "=r"(t));
  return t;
}

__attribute__((cold)) static int pmc_setup(struct cpucycles_setup *s)
{
  s->access = CPUCYCLES_ACCESS_MODULE;
#ifdef __linux__
  if (access("/proc/sys/kernel/perf_user_access", F_OK) == 0)
    return cpucycles_refuse(s, CPUCYCLES_REFUSED_KERNEL, 0, 0, 0);
#endif
  s->kind = CPUCYCLES_CORE;
  return 0;
}

COUNTER_DEFINE(pmc_read, pmc_setup, 0);
