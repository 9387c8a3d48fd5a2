/* default-perfevent: the kernel's count of this thread's CPU cycles, read
   through perf_event descriptors. Needs Linux perf_event with a hardware
   cycle event (a PMU the kernel can use, perf_event_paranoid allowing it).
   Every read is a system call (two on hybrid x86, one event per core
   type), hence the off-core penalty. */
#include "counter.h"
#include "perf.h"

static struct cpucycles_perf perf;

static long long perfevent_read(void)
{
  long long total = 0;
  int i;
  for (i = 0; i < perf.n; ++i) total += cpucycles_perf_fd_count(perf.fd[i]);
  return total;
}

static int perfevent_setup(struct cpucycles_setup *s)
{
  if (cpucycles_perf_open(&perf, 0, 0) != 0) return -1;
  s->kind = CPUCYCLES_OFFCORE;
  return 0;
}

static void perfevent_release(void)
{
  cpucycles_perf_close(&perf);
}

COUNTER_DEFINE(perfevent_read, perfevent_setup, perfevent_release);
