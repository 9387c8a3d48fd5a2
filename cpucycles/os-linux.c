/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* os-linux.c: what Linux reports, through /sys and /proc (see os.h). The
   perf_event pieces live in perf.c, also compiled only for Linux. */
#ifndef __linux__
#error "os-linux.c is for Linux"
#endif
#define _GNU_SOURCE /* syscall() */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "futexabi.h"
#include "internal.h"
#include "os.h"
#include "prebound.h"

long long cpucycles_cpuinfo_scan(const char *root, long long (*line)(const char *, size_t))
{
  long long v;
  int fd = cpucycles_open_regular(root, "/proc/cpuinfo");
  if (fd < 0) return 0;
  v = cpucycles_cpuinfo_stream(cpucycles_read_some, &fd, line);
  close(fd);
  return v;
}

/* The cpufreq driver's base frequency, then its maximum (kHz), then the
   first line of /proc/cpuinfo that states a clock rate. Both cpufreq
   files are looked up in their directory, opened once: a kernel without
   the driver (virtual machines) has neither, and says so in one lookup. */
long long cpucycles_os_persecond(const char *root)
{
  long long v = 0;
  int dir = cpucycles_open_dir(root, "/sys/devices/system/cpu/cpu0/cpufreq");
  if (dir >= 0) {
    v = cpucycles_read_number(cpucycles_open_regular_at(dir, "base_frequency"), cpucycles_parse_khz);
    if (!v)
      v = cpucycles_read_number(cpucycles_open_regular_at(dir, "cpuinfo_max_freq"),
                                cpucycles_parse_khz);
    close(dir);
  }
  if (!v) v = cpucycles_cpuinfo_scan(root, cpucycles_parse_cpuinfo_line);
  return v;
}

/* Whether a core PMU's rdpmc file says 2: RDPMC allowed to every process
   without a perf event. Anything else, or no such file (no PMU driver),
   means the instruction would fault; asking costs one open, cheaper than
   the CPUIDs of amd64-pmcff's check in a virtual machine. */
static int open_to_all(const char *path)
{
  char c[2];
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  ssize_t n;
  if (fd < 0) return 0;
  n = read(fd, c, sizeof c);
  close(fd);
  return n >= 1 && c[0] == '2' && (n == 1 || c[1] == '\n');
}

int cpucycles_os_rdpmc_open(void)
{
  return open_to_all("/sys/devices/cpu/rdpmc") || open_to_all("/sys/devices/cpu_core/rdpmc");
}

/* PowerPC kernels state it on /proc/cpuinfo's "timebase" line. */
long long cpucycles_os_timebase(void)
{
  return cpucycles_cpuinfo_scan("", cpucycles_parse_timebase_line);
}

/* A private futex: the word lives in this process's memory only, so the
   kernel keys it by address space and spares the shared-mapping lookup.
   32-bit hosts with 64-bit time have only the _time64 call; others take
   the timeout in the kernel's own timespec, which on those hosts is two
   longs (x32's long is 32 bits, but its timespec, like the kernel's, is
   64-bit fields: struct timespec there matches). */
#define WAIT_NS 100000000L
void cpucycles_os_wait(int *addr, int val)
{
#ifdef SYS_futex_time64
  const long long t64[2] = { 0, WAIT_NS };
  if (LIBC(syscall)(SYS_futex_time64, addr, FUTEXABI_WAIT_PRIVATE, val, t64, 0, 0) == 0 ||
      CPUCYCLES_ERRNO != ENOSYS)
    return;
#endif
#ifdef SYS_futex
  {
#if defined(__x86_64__) && defined(__ILP32__)
    const struct timespec t = { 0, WAIT_NS };
#else
    const long t[2] = { 0, WAIT_NS };
#endif
    LIBC(syscall)(SYS_futex, addr, FUTEXABI_WAIT_PRIVATE, val, &t, 0, 0);
  }
#endif
}

void cpucycles_os_wake(int *addr)
{
#ifdef SYS_futex_time64
  if (LIBC(syscall)(SYS_futex_time64, addr, FUTEXABI_WAKE_PRIVATE, INT_MAX, 0, 0, 0) >= 0 ||
      CPUCYCLES_ERRNO != ENOSYS)
    return;
#endif
#ifdef SYS_futex
  LIBC(syscall)(SYS_futex, addr, FUTEXABI_WAKE_PRIVATE, INT_MAX, 0, 0, 0);
#endif
}

int cpucycles_os_thread(void)
{
  return (int)LIBC(syscall)(SYS_gettid);
}

/* Signal 0 to a thread only checks that it is in our thread group: a tid
   of another process, even one with the same number in another pid
   namespace, is ESRCH. */
int cpucycles_os_thread_alive(int id)
{
  return LIBC(syscall)(SYS_tgkill, (long)LIBC(getpid)(), (long)id, 0) == 0 ||
         CPUCYCLES_ERRNO != ESRCH;
}
