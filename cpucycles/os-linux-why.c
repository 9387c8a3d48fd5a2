/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* os-linux-why.c: what Linux's settings say when a counter has failed,
   read at that moment for a traced selection's account of it (why.h,
   os.h): the settings that grant or refuse perf events and user access
   to the counters, and whether this process holds the capabilities that
   the paranoid setting does not bind. Every path under root, so that
   tests can give fixtures. Runs only in a traced first call. */
#ifndef __linux__
#error "os-linux-why.c is for Linux"
#endif
#define _GNU_SOURCE /* syscall() */
#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "internal.h"
#include "os.h"
#include "why.h"

/* The settings are small numbers (perf_event_paranoid -1 to 4, the
   others 0 to 2): six digits at most, a longer one is not known. */
#define SETTING_MAX 999999

/* A setting's file: one decimal integer, maybe negative
   (perf_event_paranoid -1), and a newline. */
__attribute__((cold)) static void setting(const char *root, const char *path,
                                         struct cpucycles_why_setting *s)
{
  char buf[24];
  long long value;
  long n;
  int fd;

  s->known = 0;
  errno = 0;
  fd = cpucycles_open_regular(root, path);
  if (fd < 0) {
    s->error = errno ? errno : EINVAL;
    return;
  }
  n = cpucycles_read_some(&fd, buf, sizeof buf);
  s->error = n < 0 ? errno : EINVAL;
  close(fd);
  if (n < 0 || !cpucycles_parse_integer(buf, (size_t)n, -SETTING_MAX, SETTING_MAX, &value)) return;
  s->value = (int)value;
  s->known = 1;
  s->error = 0;
}

/* CAP_SYS_ADMIN (21) or CAP_PERFMON (38, Linux 5.8+) in the effective
   set: perfmon_capable(), which the paranoid setting does not bind
   (Debian's refusal of every event at 3 and above included). 1, 0, or -1
   when the kernel does not say. */
#define CAPS_VERSION_3 0x20080522
__attribute__((cold)) static int privileged(void)
{
  struct {
    uint32_t version;
    int pid;
  } header = { CAPS_VERSION_3, 0 };
  struct {
    uint32_t effective, permitted, inheritable;
  } caps[2];
  if (syscall(SYS_capget, &header, caps) != 0) return -1;
  return (caps[0].effective >> 21 & 1) || (caps[1].effective >> (38 - 32) & 1);
}

__attribute__((cold)) void cpucycles_os_why(const char *root, struct cpucycles_why *w)
{
  setting(root, "/proc/sys/kernel/perf_event_paranoid", &w->paranoid);
  setting(root, "/proc/sys/kernel/perf_user_access", &w->user_access);
  /* hybrid Intel has no cpu PMU but cpu_core and cpu_atom, set alike */
  setting(root, "/sys/devices/cpu/rdpmc", &w->rdpmc);
  if (w->rdpmc.error == ENOENT) setting(root, "/sys/devices/cpu_core/rdpmc", &w->rdpmc);
  setting(root, "/proc/sys/kernel/nmi_watchdog", &w->watchdog);
  w->privileged = privileged();
}
