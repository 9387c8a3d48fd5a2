/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* os-posix.c: any Unix-like system configure has no layer for (FreeBSD,
   NetBSD, Hurd, ...), see os.h. It asks nothing beyond POSIX, so each
   question gets the answer that sends the library to its own measurement:
   persecond falls through to the environment and the default, RDPMC to
   the guarded probe, the time base to measuring it (os-silent.c). Waiting
   is a short sleep, as POSIX has no compare-and-wait, and threads are
   numbered by this file. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include "internal.h"
#include "os.h"

long long cpucycles_os_persecond(const char *root)
{
  (void)root;
  return 0;
}

/* No compare-and-wait in POSIX: a waiter sleeps 200 us and looks again,
   which spins no CPU and answers within a fraction of a millisecond of
   the publication. nanosleep is async-signal-safe. */
void cpucycles_os_wait(int *addr, int val)
{
  struct timespec pause = { 0, 200000 };
  if (__atomic_load_n(addr, __ATOMIC_ACQUIRE) == val) nanosleep(&pause, 0);
}

void cpucycles_os_wake(int *addr)
{
  (void)addr;
}

/* Each thread takes the next number on its first call; numbers are not
   reused, and 2^30 threads would have to start before one repeats. */
static int threads_numbered;
static CPUCYCLES_THREAD_LOCAL int this_thread;

int cpucycles_os_thread(void)
{
  if (!this_thread)
    this_thread = 1 + __atomic_fetch_add(&threads_numbered, 1, __ATOMIC_RELAXED) % 0x3fffffff;
  return this_thread;
}

/* Whether a thread is alive cannot be asked in POSIX without its handle. */
int cpucycles_os_thread_alive(int id)
{
  (void)id;
  return 1;
}
