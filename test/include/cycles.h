/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* cycles.h: a user-mode perf_event event on this process, for the tests
   that open one beside the library's (Linux only): a cycles event, or any
   other (perf_self_open). inherit: it follows the threads and children
   started from now on; pinned: the kernel keeps it on a counter or puts it
   in error, rather than rotating it with others. The descriptor, or -1
   with errno set. */
#ifndef CYCLES_H
#define CYCLES_H
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "perfabi.h"

static inline int perf_self_open(unsigned int type, unsigned long long config, int inherit,
                                 int pinned)
{
  struct perfabi_attr a;
  memset(&a, 0, sizeof a);
  a.type = type;
  a.size = sizeof a;
  a.config = config;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  a.inherit = (unsigned)inherit;
  a.pinned = (unsigned)pinned;
  return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERFABI_FLAG_FD_CLOEXEC);
}

static inline int cycles_open(int inherit, int pinned)
{
  return perf_self_open(PERFABI_TYPE_HARDWARE, PERFABI_COUNT_HW_CPU_CYCLES, inherit, pinned);
}
#endif
