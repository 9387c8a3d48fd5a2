/* amd64-pmcff: Intel's fixed-function core-cycle counter through RDPMC,
   without perf_event. Needs 64-bit Intel with architectural performance
   monitoring version 2+, an OS that already lets every process use RDPMC
   (Linux: /sys/devices/cpu/rdpmc set to 2) and someone keeping the fixed
   counter running; otherwise RDPMC faults or the counter stands still and
   the selection drops it. Anything that reprograms the counter (the NMI
   watchdog on Linux) makes it jump. */
#if !defined(__x86_64__)
#error "amd64-pmcff is for 64-bit x86"
#endif
#ifdef __linux__
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <unistd.h>
#endif
#include "counter.h"
#include "rdpmc.h"

static long long pmcff_read(void)
{
  return (long long)cpucycles_rdpmc(CPUCYCLES_RDPMC_FIXED_CYCLES);
}

#ifdef __linux__
/* Whether a core PMU's rdpmc file says 2: RDPMC allowed to every process
   without a perf event. Anything else, or no such file (no PMU driver),
   means the instruction would fault; asking costs one open, cheaper than
   the CPUIDs of the check below in a virtual machine. */
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
#endif

static int pmcff_setup(struct cpucycles_setup *s)
{
#ifdef __linux__
  if (!open_to_all("/sys/devices/cpu/rdpmc") && !open_to_all("/sys/devices/cpu_core/rdpmc"))
    return -1;
#endif
  if (!cpucycles_fixed_cycles_present()) return -1;
  s->kind = CPUCYCLES_CORE;
  return 0;
}

COUNTER_DEFINE(pmcff_read, pmcff_setup, 0);
