/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* cpusbsd.c: cpus.h on FreeBSD, through cpuset_getaffinity and
   cpuset_setaffinity (cpus.c has Linux's and the rest). A cpuset_t holds
   CPU_SETSIZE CPUs, the kernel's MAXCPU when this was compiled: a kernel
   built for more refuses a mask that small (ERANGE), and then the system
   cannot say, as elsewhere. */
#ifdef __FreeBSD__
#include <sys/param.h>
#include <sys/cpuset.h>
#include <errno.h>
#include <pthread_np.h>
#include <stdlib.h>
#include "cpus.h"

/* The calling thread's own mask: the CPUs this process may run on, as
   the threads it starts inherit them. */
static int this_thread(cpuset_t *set)
{
  CPU_ZERO(set);
  return cpuset_getaffinity(CPU_LEVEL_WHICH, CPU_WHICH_TID, -1, sizeof *set, set) == 0 ? 0
                                                                                     : errno;
}

int cpus_allowed(int **cpus)
{
  cpuset_t set;
  int i, n;

  *cpus = 0;
  if (this_thread(&set) != 0) return 0;
  n = CPU_COUNT(&set);
  *cpus = n > 0 ? malloc((size_t)n * sizeof **cpus) : 0;
  if (!*cpus) return 0;
  for (i = 0, n = 0; i < CPU_SETSIZE; ++i)
    if (CPU_ISSET(i, &set)) (*cpus)[n++] = i;
  return n;
}

int cpus_pin(int cpu)
{
  cpuset_t set;
  if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  /* -1 with CPU_WHICH_TID: the calling thread, not the whole process */
  return cpuset_setaffinity(CPU_LEVEL_WHICH, CPU_WHICH_TID, -1, sizeof set, &set) == 0 ? 0
                                                                                       : errno;
}

int cpus_unpin(pthread_t thread)
{
  cpuset_t set;
  int err = this_thread(&set);
  return err ? err : pthread_setaffinity_np(thread, sizeof set, &set);
}
#else
/* Elsewhere cpus.c has them; ISO C wants something in a file. */
typedef int cpusbsd_empty;
#endif
