/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* cpus.c: see cpus.h. */
#define _GNU_SOURCE /* sched_getaffinity and the CPU_ macros */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpus.h"

#ifdef __linux__
#include <sched.h>

/* A cpu_set_t holds 1024 CPUs; the kernel refuses a mask smaller than
   its own (EINVAL), so larger machines get one sized for them. */
#define CPUS_LIMIT 65536

int cpus_allowed(int **cpus)
{
  int size, i, n;

  *cpus = 0;
  for (size = 1024; size <= CPUS_LIMIT; size *= 2) {
    cpu_set_t *set = CPU_ALLOC(size);
    size_t bytes = CPU_ALLOC_SIZE(size);
    if (!set) return 0;
    CPU_ZERO_S(bytes, set);
    if (sched_getaffinity(0, bytes, set) != 0) {
      CPU_FREE(set);
      if (errno == EINVAL) continue;
      return 0;
    }
    n = CPU_COUNT_S(bytes, set);
    *cpus = n > 0 ? malloc((size_t)n * sizeof **cpus) : 0;
    if (!*cpus) {
      CPU_FREE(set);
      return 0;
    }
    for (i = 0, n = 0; i < size; ++i)
      if (CPU_ISSET_S(i, bytes, set)) (*cpus)[n++] = i;
    CPU_FREE(set);
    return n;
  }
  return 0;
}

int cpus_pin(int cpu)
{
  cpu_set_t *set;
  size_t bytes;
  int err = 0;

  if (cpu < 0 || cpu >= CPUS_LIMIT) return EINVAL;
  set = CPU_ALLOC(cpu + 1);
  if (!set) return ENOMEM;
  bytes = CPU_ALLOC_SIZE(cpu + 1);
  CPU_ZERO_S(bytes, set);
  CPU_SET_S(cpu, bytes, set);
  /* 0: the calling thread, not the whole process */
  if (sched_setaffinity(0, bytes, set) != 0) err = errno ? errno : EINVAL;
  CPU_FREE(set);
  return err;
}
int cpus_unpin(pthread_t thread)
{
  cpu_set_t *set;
  size_t bytes;
  int size, err = EINVAL;

  for (size = 1024; size <= CPUS_LIMIT && err == EINVAL; size *= 2) {
    set = CPU_ALLOC(size);
    if (!set) return ENOMEM;
    bytes = CPU_ALLOC_SIZE(size);
    CPU_ZERO_S(bytes, set);
    err = sched_getaffinity(0, bytes, set) != 0 ? errno : pthread_setaffinity_np(thread, bytes, set);
    CPU_FREE(set);
  }
  return err;
}
#elif !defined(__FreeBSD__) /* FreeBSD's: cpusbsd.c */
int cpus_allowed(int **cpus)
{
  *cpus = 0;
  return 0;
}

int cpus_pin(int cpu)
{
  (void)cpu;
  return ENOSYS;
}

#ifndef _WIN32
int cpus_unpin(pthread_t thread)
{
  (void)thread;
  return ENOSYS;
}
#endif
#endif

void cpus_format(const int *cpus, int n, char *out, size_t size)
{
  size_t k = 0;
  int i = 0;

  if (size < 4) return;
  out[0] = 0;
  while (i < n) {
    int j = i, w;
    while (j + 1 < n && cpus[j + 1] == cpus[j] + 1) ++j;
    w = j > i ? snprintf(out + k, size - k, "%s%d-%d", k ? "," : "", cpus[i], cpus[j])
              : snprintf(out + k, size - k, "%s%d", k ? "," : "", cpus[i]);
    if (w < 0 || (size_t)w >= size - k) {
      /* cut: end in "..." within size */
      k = size - 4 < k ? size - 4 : k;
      memcpy(out + k, "...", 4);
      return;
    }
    k += (size_t)w;
    i = j + 1;
  }
}
