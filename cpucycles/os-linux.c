/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* os-linux.c: what Linux reports, through /sys and /proc (see os.h). The
   perf_event pieces live in perf.c, also compiled only for Linux. */
#ifndef __linux__
#error "os-linux.c is for Linux"
#endif
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <unistd.h>
#include "internal.h"
#include "os.h"

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
   first line of /proc/cpuinfo that states a clock rate. */
long long cpucycles_os_persecond(const char *root)
{
  long long v = cpucycles_small_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/base_frequency",
                                     cpucycles_parse_khz);
  if (!v) v = cpucycles_small_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
                                   cpucycles_parse_khz);
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
