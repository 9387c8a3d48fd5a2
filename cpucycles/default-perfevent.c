/* default-perfevent: the kernel's count of this thread's CPU cycles, read
   through a perf_event descriptor. Needs Linux perf_event with a hardware
   cycle event (a PMU the kernel can use, perf_event_paranoid allowing it).
   Every read is a system call, hence the off-core penalty. */
#define _GNU_SOURCE
#include <stdint.h>
#include <unistd.h>
#include "counter.h"
#include "perf.h"

static int fd = -1;

static long long perfevent_read(void)
{
  int64_t count;
  if (read(fd, &count, sizeof count) != (ssize_t)sizeof count) return 0;
  return (long long)count;
}

static int perfevent_setup(struct cpucycles_setup *s)
{
  fd = cpucycles_perf_open_cycles();
  if (fd < 0) return -1;
  s->kind = CPUCYCLES_OFFCORE;
  return 0;
}

static void perfevent_release(void)
{
  if (fd >= 0) close(fd);
  fd = -1;
}

COUNTER_DEFINE(perfevent_read, perfevent_setup, perfevent_release);
