/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* os-freebsd.c: what FreeBSD reports, through sysctl, and its own
   compare-and-wait and thread ids (see os.h). FreeBSD has no /proc/cpuinfo
   nor /sys: the kernel answers by name through sysctlbyname (sysctl.c),
   about this machine only, so a test's root other than "" gets 0 here. */
#ifndef __FreeBSD__
#error "os-freebsd.c is for FreeBSD"
#endif
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h> /* before <sys/umtx.h>, which uses u_long unannounced */
#include <sys/thr.h>
#include <sys/umtx.h>
#include "internal.h"
#include "os.h"
#include "why.h"

static long long within(long long hz)
{
  return hz >= CPUCYCLES_PERSECOND_MIN && hz <= CPUCYCLES_PERSECOND_MAX ? hz : 0;
}

/* The first that answers (doc/selection.md says why this order):
   machdep.tsc_freq (x86), the TSC rate in hz that the kernel calibrated
   at boot, or took from CPUID or the hypervisor, and keeps time with:
   exactly the rate of what amd64-tsc and x86-tsc count; CPUID's own
   statement of that rate, where the kernel has none (tscrate.c: this
   layer asks it, persecond.c does not, see os.h); hw.clockrate, the
   CPU's clock in MHz as the kernel identified it at boot (on x86 the TSC
   rate rounded to MHz, elsewhere what the platform code found, when it
   sets it at all); the cpufreq driver's dev.cpu.0.freq, in MHz, the
   clock CPU 0 runs at this moment, which powerd may change later. */
long long cpucycles_os_persecond(const char *root)
{
  long long v = 0;
  if (*root) return 0;
#if defined(__x86_64__) || defined(__i386__)
  v = within(cpucycles_sysctl_number("machdep.tsc_freq"));
  if (!v) v = cpucycles_tscrate();
#endif
  if (!v) v = within(cpucycles_sysctl_number("hw.clockrate") * 1000000);
  if (!v) v = within(cpucycles_sysctl_number("dev.cpu.0.freq") * 1000000);
  return v;
}

/* RDPMC is open to user mode only while hwpmc(4) has given this very
   process a counter of its own, which the library never asks for: no
   setting says so beforehand, and the guarded probe finds out. */
int cpucycles_os_rdpmc_open(void)
{
  return -1;
}

/* FreeBSD's PowerPC timecounter is the time base itself, registered
   under the name "timebase"; every timecounter states its rate in hz
   under kern.timecounter.tc.<name>.frequency. Elsewhere, or when it is
   not that timecounter, the selection measures the rate. */
long long cpucycles_os_timebase(void)
{
#if defined(__powerpc__)
  return cpucycles_sysctl_number("kern.timecounter.tc.timebase.frequency");
#else
  return 0;
#endif
}

/* No setting of FreeBSD's grants a counter that failed: the PMU is
   hwpmc(4)'s, which the library does not use (why.c says so). */
void cpucycles_os_why(const char *root, struct cpucycles_why *w)
{
  (void)root;
  w->system = CPUCYCLES_WHY_FREEBSD;
  w->privileged = -1;
}

/* The kernel's compare-and-wait on a 32-bit word, process-private (the
   word is never in shared memory, and the private queue spares the
   kernel the lookup of the mapping). The timeout is relative (no
   UMTX_ABSTIME) on the monotonic clock, given in struct _umtx_time,
   whose size goes in the argument before it. A system call, so
   async-signal-safe; errno is the caller's to keep (api.c does). */
#define WAIT_NS 100000000L
void cpucycles_os_wait(int *addr, int val)
{
  struct _umtx_time t;
  t._timeout.tv_sec = 0;
  t._timeout.tv_nsec = WAIT_NS;
  t._flags = 0;
  t._clockid = CLOCK_MONOTONIC;
  _umtx_op(addr, UMTX_OP_WAIT_UINT_PRIVATE, (u_long)(unsigned int)val,
           (void *)(uintptr_t)sizeof t, &t);
}

void cpucycles_os_wake(int *addr)
{
  _umtx_op(addr, UMTX_OP_WAKE_PRIVATE, INT_MAX, 0, 0);
}

/* The kernel's thread id: unique on the whole system while the thread
   lives, numbered from 100001 up (above every process id), the lowest
   free one first, so far below 2^30. */
int cpucycles_os_thread(void)
{
  long id = 0;
  thr_self(&id);
  return (int)id;
}

/* thr_kill reaches only threads of this process, and signal 0 only
   checks: ESRCH says no thread here has that id, as for a claim that
   came with memory from another process (a forked child's threads have
   ids of their own). */
int cpucycles_os_thread_alive(int id)
{
  return thr_kill((long)id, 0) == 0 || errno != ESRCH;
}
