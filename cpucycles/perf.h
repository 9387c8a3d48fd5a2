/* perf.h: opening a Linux perf_event for the counters that use one. */
#ifndef CPUCYCLES_PERF_H
#define CPUCYCLES_PERF_H

#include <linux/perf_event.h>
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC (1UL << 3)
#endif

/* A CPU-cycle counter for this thread and its future children on any CPU,
   opened close-on-exec so an exec'd program never inherits it. Kernels and
   hypervisors differ in which exclusions they accept, so every combination
   is tried, most exclusive first, unless the first answer is that there is
   no such event or no perf_event at all, which no exclusion changes (three
   more refused system calls per counter were ~10 us of a first call in a
   VM without a PMU). Returns the descriptor or -1. */
static inline int cpucycles_perf_open_cycles(void)
{
  struct perf_event_attr attr;
  int kernel, hv;

  for (kernel = 1; kernel >= 0; --kernel)
    for (hv = 1; hv >= 0; --hv) {
      long fd;
      memset(&attr, 0, sizeof attr);
      attr.type = PERF_TYPE_HARDWARE;
      attr.size = sizeof attr;
      attr.config = PERF_COUNT_HW_CPU_CYCLES;
      attr.exclude_kernel = (unsigned)kernel;
      attr.exclude_hv = (unsigned)hv;
      fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
      if (fd >= 0) return (int)fd;
      if (errno == ENOENT || errno == ENODEV || errno == ENOSYS) return -1;
    }
  return -1;
}

#endif
