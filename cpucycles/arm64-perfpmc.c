/* arm64-perfpmc: the core's cycle counter PMCCNTR_EL0, read in user mode
   after a perf_event cycle event has asked the kernel for user access.
   Needs 64-bit ARMv8 and Linux 5.17+ with /proc/sys/kernel/perf_user_access
   set to 1. The kernel allows EL0 reads only while a thread has such an
   event, so the event is inherited: threads and children created after the
   first call can read too. A thread that existed before would be stopped
   by SIGILL, so the counter is not used when the first call finds any
   other thread in the process. */
#if !defined(__aarch64__)
#error "arm64-perfpmc is for 64-bit ARM"
#endif
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "counter.h"
#include "perf.h"

/* attr.config1 of the arm64 PMU: bit 1 asks for user access, bit 0 for a
   64-bit counter (a cycle event then lands in PMCCNTR_EL0). */
#define USER_ACCESS 2ULL
#define COUNTER_64BIT 1ULL

static struct cpucycles_perf perf;

static long long perfpmc_read(void)
{
  long long t;
  __asm__ __volatile__("mrs %0, PMCCNTR_EL0" : "=r"(t));
  return t;
}

/* Whether this process has one thread, from /proc/self/status's
   "Threads:" line; no answer counts as no. */
static int single_threaded(void)
{
  char buf[2048], *p;
  ssize_t n;
  int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = 0;
  p = strstr(buf, "\nThreads:");
  if (!p) return 0;
  p += strlen("\nThreads:");
  while (*p == ' ' || *p == '\t') ++p;
  return p[0] == '1' && p[1] == '\n';
}

static int perfpmc_setup(struct cpucycles_setup *s)
{
  if (!single_threaded()) return -1;
  if (cpucycles_perf_open(&perf, USER_ACCESS | COUNTER_64BIT, CPUCYCLES_PERF_INHERIT) != 0 &&
      cpucycles_perf_open(&perf, USER_ACCESS, CPUCYCLES_PERF_INHERIT) != 0)
    return -1;
  s->kind = CPUCYCLES_CORE;
  return 0;
}

static void perfpmc_release(void)
{
  cpucycles_perf_close(&perf);
}

COUNTER_DEFINE(perfpmc_read, perfpmc_setup, perfpmc_release);
