/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* os-macos.c: what macOS reports, through sysctl (see os.h); what it
   does not, os-silent.c answers. */
#if !(defined(__APPLE__) && defined(__MACH__))
#error "os-macos.c is for macOS"
#endif
#include <pthread.h>
#include <stdint.h>
#include "internal.h"
#include "os.h"

/* hw.cpufrequency is the nominal core clock; Intel Macs have it. Apple
   silicon has none (its cores change clock per cluster), and
   hw.tbfrequency there is the 24 MHz timer's rate, not the core's, so it
   is not used: the chain goes on to the environment and the default. */
long long cpucycles_os_persecond(const char *root)
{
  long long v;
  if (*root) return 0;
  v = cpucycles_sysctl_number("hw.cpufrequency");
  return v >= CPUCYCLES_PERSECOND_MIN && v <= CPUCYCLES_PERSECOND_MAX ? v : 0;
}

/* macOS has no futex in its public headers; its compare-and-wait is
   __ulock_wait/__ulock_wake in libSystem (present since 10.12, what
   libc++'s std::atomic::wait itself calls; os_sync_wait_on_address, the
   public wrapper, appeared only in 14.4). A mutex and condition variable
   would not do: a signal handler may wait here while its own thread held
   the mutex. The timeout is in microseconds. */
#define UL_COMPARE_AND_WAIT 1
#define ULF_WAKE_ALL 0x100
#define ULF_NO_ERRNO 0x1000000
extern int __ulock_wait(uint32_t operation, void *addr, uint64_t value, uint32_t timeout_us);
extern int __ulock_wake(uint32_t operation, void *addr, uint64_t wake_value);

void cpucycles_os_wait(int *addr, int val)
{
  __ulock_wait(UL_COMPARE_AND_WAIT | ULF_NO_ERRNO, addr, (uint64_t)(uint32_t)val, 100000);
}

void cpucycles_os_wake(int *addr)
{
  __ulock_wake(UL_COMPARE_AND_WAIT | ULF_WAKE_ALL | ULF_NO_ERRNO, addr, 0);
}

/* The thread's Mach port name in this task: 32 bits, unique among its
   live threads. A forked child's copy of the claim names a port the
   child's task may also use, so the check below cannot tell; the fork
   handler in api.c clears such claims instead. */
int cpucycles_os_thread(void)
{
  return (int)pthread_mach_thread_np(pthread_self());
}

int cpucycles_os_thread_alive(int id)
{
  (void)id;
  return 1;
}
