/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* cpus.h: on which CPUs this process may run, and pinning a thread to
   one of them. Linux (cpus.c) and FreeBSD (cpusbsd.c) only: elsewhere
   this system cannot say, and cannot pin. */
#ifndef CPUS_H
#define CPUS_H
#ifndef _WIN32
#include <pthread.h> /* Windows: no cross-core threads, nothing to unpin */
#endif
#include <stddef.h>

/* The CPUs the process may run on, ascending, in *cpus (malloc'd; free
   it): their number, or 0 when the system cannot say (not Linux, or
   sched_getaffinity refused). */
int cpus_allowed(int **cpus);

/* Pins the calling thread to cpu: 0, or an errno value (ENOSYS where the
   system has no way). */
int cpus_pin(int cpu);

/* Lets thread go where the calling thread may (pinned before by
   cpus_pin): 0, or an errno value. */
#ifndef _WIN32
int cpus_unpin(pthread_t thread);
#endif

/* The call that says where the process may run, as the trust and
   crosscore lines name it. */
#ifdef __FreeBSD__
#define CPUS_ASKED "cpuset_getaffinity"
#else
#define CPUS_ASKED "sched_getaffinity"
#endif

/* "0-3,8,10-11" in out (cut to size, ending in "..." then). */
void cpus_format(const int *cpus, int n, char *out, size_t size);
#endif
