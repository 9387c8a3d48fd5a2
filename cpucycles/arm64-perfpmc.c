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
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
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

static long read_status(void *fd, char *buf, size_t len)
{
  ssize_t r;
  do r = read(*(int *)fd, buf, len);
  while (r < 0 && errno == EINTR);
  return (long)r;
}

/* The "Threads:" line's count; -1 for a malformed one, which ends the
   scan as a count would; 0 for any other line. */
static long long threads_line(const char *line, size_t len)
{
  static const char key[] = "Threads:";
  size_t i = sizeof key - 1;
  long long n = 0;
  if (len <= i || memcmp(line, key, i) != 0) return 0;
  while (i < len && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (i == len) return -1;
  for (; i < len && line[i] >= '0' && line[i] <= '9' && n < 1000000; ++i) n = n * 10 + (line[i] - '0');
  return i == len && n > 0 ? n : -1;
}

/* Whether this process has one thread, from /proc/self/status's
   "Threads:" line; no answer counts as no. Streamed through the cpuinfo
   reader's small buffer: a first call's stack may be a signal handler's
   8 KiB, too little for the 2 KB this once read at a go. */
static int single_threaded(void)
{
  long long n;
  int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  n = cpucycles_cpuinfo_stream(read_status, &fd, threads_line);
  close(fd);
  return n == 1;
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
