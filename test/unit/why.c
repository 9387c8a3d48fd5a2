/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* why.c: the `cpucycles why` lines. First the line as a function of what
   a trial saw (why.c's cpucycles_why_format, every code from a record made
   here, with what the line must then say); then traced selections of
   synthetic counters that refuse, fault, freeze, go back, tick at a rate
   that fits nothing, or fail their confirmation, read from the trace the
   selection prints (childout.h). The kernel's own answers are provoked in
   test/environment/whyperf.c. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "childout.h"
#include "check.h"
#include "forkable.h"
#include "internal.h"
#include "why.h"

#define PERSECOND 2400000000LL

static char line[1024];

/* The line for record w of a counter named "c", with code and each of the
   (up to three, null-ended) phrases in it. */
static void expect(const struct cpucycles_why *w, const char *what, const char *code,
                   const char *p1, const char *p2, const char *p3)
{
  char head[64];
  int n = cpucycles_why_format(line, sizeof line, "c", w);
  snprintf(head, sizeof head, "cpucycles why c %s ", code);
  CHECK(n == (int)strlen(line) && strncmp(line, head, strlen(head)) == 0 &&
            (!p1 || strstr(line, p1)) && (!p2 || strstr(line, p2)) && (!p3 || strstr(line, p3)),
        "%s: %s, saying %s%s%s%s%s (%s)", what, code, p1 ? p1 : "", p2 ? "; " : "", p2 ? p2 : "",
        p3 ? "; " : "", p3 ? p3 : "", line);
}

/* A perf_event_open refusal: errno leaving the kernel out, errno counting
   it (0: not asked), and kernel.perf_event_paranoid (-100: unreadable,
   ENOENT) with the process's privilege. */
static struct cpucycles_why perf(int user, int all, int paranoid, int privileged)
{
  struct cpucycles_why w;
  memset(&w, 0, sizeof w);
  w.stage = CPUCYCLES_WHY_REFUSED;
  w.refusal = CPUCYCLES_REFUSED_PERF;
  w.access = CPUCYCLES_ACCESS_RDPMC;
  w.seen[0] = user;
  w.seen[1] = all;
  if (paranoid == -100) w.paranoid.error = ENOENT;
  else {
    w.paranoid.value = paranoid;
    w.paranoid.known = 1;
  }
  w.privileged = privileged;
  return w;
}

static void kernel_answers(void)
{
  struct cpucycles_why w;
  char e[64], e2[64];

  w = perf(ENOENT, 0, 2, 0);
  snprintf(e, sizeof e, "perf_event_open said ENOENT (errno %d)", ENOENT);
  expect(&w, "ENOENT", "perf-noevent", e, "no PMU driver", "nothing inside this machine enables it");
  w.seen[2] = 1;
  expect(&w, "ENOENT kept from the first event", "perf-noevent", e, "not asked again", 0);
  w = perf(ENODEV, 0, 2, 0);
  expect(&w, "ENODEV", "perf-noevent", "ENODEV", 0, 0);
  w = perf(EOPNOTSUPP, EOPNOTSUPP, 2, 0);
  expect(&w, "EOPNOTSUPP both ways", "perf-noevent", "EOPNOTSUPP", 0, 0);

  /* Left out, the kernel refuses only at 3 and above (distribution
     kernels), and never a process with CAP_PERFMON or CAP_SYS_ADMIN. */
  snprintf(e, sizeof e, "EACCES (errno %d)", EACCES);
  w = perf(EACCES, EACCES, 2, 0);
  expect(&w, "EACCES at paranoid 2", "perf-policy", e, "kernel.perf_event_paranoid is 2",
         "policy");
  w = perf(EACCES, EACCES, 3, 0);
  expect(&w, "EACCES at paranoid 3, unprivileged", "perf-paranoid",
         "kernel.perf_event_paranoid is 3", "without CAP_PERFMON",
         "sysctl kernel.perf_event_paranoid=2");
  expect(&w, "EACCES at paranoid 3: cpucycles-open", "perf-paranoid", "cpucycles-open as root", 0,
         0);
  w = perf(EACCES, EACCES, 3, 1);
  expect(&w, "EACCES at paranoid 3, privileged", "perf-policy", "holding CAP_PERFMON",
         "no paranoid value binds", 0);
  w = perf(EPERM, EPERM, 4, -1);
  snprintf(e, sizeof e, "EPERM (errno %d)", EPERM);
  expect(&w, "EPERM at 4, privilege unknown", "perf-paranoid", e, "is 4", 0);
  w = perf(EPERM, EPERM, -1, 0);
  expect(&w, "EPERM at -1", "perf-policy", "kernel.perf_event_paranoid is -1", 0, 0);
  /* A PMU that cannot leave the kernel out: counting it needs 1 or less. */
  w = perf(EOPNOTSUPP, EACCES, 2, 0);
  snprintf(e2, sizeof e2, "and EACCES (errno %d) to one counting the kernel too", EACCES);
  expect(&w, "kernel not left out, EACCES at 2", "perf-paranoid", e2,
         "sysctl kernel.perf_event_paranoid=1", 0);
  w = perf(EOPNOTSUPP, EACCES, 1, 0);
  expect(&w, "kernel not left out, EACCES at 1", "perf-policy", "is 1", 0, 0);
  w = perf(EACCES, EACCES, -100, 0);
  expect(&w, "EACCES, paranoid unreadable", "perf-refused",
         "kernel.perf_event_paranoid does not exist", 0, 0);

  w = perf(ENOSYS, 0, 2, 0);
  snprintf(e, sizeof e, "ENOSYS (errno %d)", ENOSYS);
  expect(&w, "ENOSYS, perf events there", "perf-nosys", e, "a filter answered", 0);
  w = perf(ENOSYS, 0, -100, 0);
  expect(&w, "ENOSYS, no perf events", "perf-nosys", "a kernel without perf events", 0, 0);
  w = perf(EMFILE, EMFILE, 2, 0);
  snprintf(e, sizeof e, "EMFILE (errno %d)", EMFILE);
  expect(&w, "EMFILE", "perf-nofd", e, "ulimit -n", 0);
  /* as a user on an arm64 kernel at paranoid 2: the event counting the
     kernel is refused by the setting, but descriptors are what failed */
  w = perf(EMFILE, EACCES, 2, 0);
  expect(&w, "EMFILE, then EACCES counting the kernel", "perf-nofd", e, "ulimit -n", 0);
  w = perf(EINVAL, EACCES, 2, 0);
  expect(&w, "EINVAL leaving the kernel out, then EACCES counting it", "perf-paranoid",
         "sysctl kernel.perf_event_paranoid=1", 0, 0);
  w = perf(ENFILE, ENFILE, 2, 0);
  expect(&w, "ENFILE", "perf-nofd", "ENFILE", 0, 0);
  w = perf(EINVAL, EINVAL, 2, 0);
  snprintf(e, sizeof e, "EINVAL (errno %d)", EINVAL);
  expect(&w, "EINVAL", "perf-error", e, 0, 0);
  w = perf(4095, 0, 2, 0);
  expect(&w, "an errno without a name", "perf-error", "errno (errno 4095)", 0, 0);

  w = perf(0, 0, 2, 0);
  w.refusal = CPUCYCLES_REFUSED_MAP;
  w.seen[0] = ENOMEM;
  snprintf(e, sizeof e, "mmap of its page said ENOMEM (errno %d)", ENOMEM);
  expect(&w, "the page not mapped", "perf-nomap", e, 0, 0);
}

static struct cpucycles_why refused(int refusal, int access, int a, int b, int c)
{
  struct cpucycles_why w;
  memset(&w, 0, sizeof w);
  w.stage = CPUCYCLES_WHY_REFUSED;
  w.refusal = (unsigned char)refusal;
  w.access = (unsigned char)access;
  w.seen[0] = a;
  w.seen[1] = b;
  w.seen[2] = c;
  w.privileged = -1;
  return w;
}

static void setups(void)
{
  struct cpucycles_why w;

  w = refused(CPUCYCLES_REFUSED_CLOSED, CPUCYCLES_ACCESS_EVENT, 1, 0, 0);
  w.user_access.known = 1;
  expect(&w, "no counter named, perf_user_access 0", "user-access-off",
         "names no counter user mode may read (index 0", "kernel.perf_user_access is 0",
         "sysctl kernel.perf_user_access=1");
  w.user_access.value = 1;
  expect(&w, "no counter named, perf_user_access 1", "user-access-off", "is 1",
         "nothing known enables it", 0);
  w.user_access.known = 0;
  w.user_access.error = ENOENT;
  expect(&w, "no counter named, no perf_user_access", "user-access-off",
         "kernel.perf_user_access does not exist", "but a newer kernel", 0);

  w = refused(CPUCYCLES_REFUSED_CLOSED, CPUCYCLES_ACCESS_RDPMC, 1, 0, 0);
  w.rdpmc.known = 1;
  expect(&w, "x86 page without RDPMC", "rdpmc-closed", "/sys/devices/cpu/rdpmc is 0",
         "cpucycles-open as root", 0);
  w = refused(CPUCYCLES_REFUSED_CLOSED, CPUCYCLES_ACCESS_RDPMC_ALL, 2, 0, 0);
  w.rdpmc.known = 1;
  w.rdpmc.value = 1;
  expect(&w, "rdpmc 1, counter without an event", "rdpmc-closed", "/sys/devices/cpu/rdpmc is 1",
         "without a perf event", 0);
  w.rdpmc.known = 0;
  w.rdpmc.error = ENOENT;
  expect(&w, "no rdpmc file", "rdpmc-closed", "does not exist", "no x86 PMU driver", 0);

  w = refused(CPUCYCLES_REFUSED_ELSEWHERE, CPUCYCLES_ACCESS_RDPMC, 1, 0x40000002, 0);
  w.watchdog.known = 1;
  w.watchdog.value = 1;
  expect(&w, "another counter, watchdog on", "counter-elsewhere",
         "names counter 0x1, this counter reads 0x40000002 only", "kernel.nmi_watchdog is 1", 0);
  w.watchdog.value = 0;
  expect(&w, "another counter, watchdog off", "counter-elsewhere", "nothing known enables it", 0,
         0);
  w = refused(CPUCYCLES_REFUSED_HYBRID, CPUCYCLES_ACCESS_RDPMC, 2, 0, 0);
  expect(&w, "two core PMUs", "hybrid-cores", "on 2 core PMUs", 0, 0);
  w = refused(CPUCYCLES_REFUSED_CPUID, CPUCYCLES_ACCESS_RDPMC, 0, 0, 0);
  expect(&w, "CPUID without the leaf's counter", "cpu-lacks",
         "version 0 with 0 fixed counters", "nothing inside this machine", 0);
  w = refused(CPUCYCLES_REFUSED_CCRES, 0, 0, 0, 0);
  expect(&w, "cycles per count 0", "cpu-lacks", "reads 0", 0, 0);
  w = refused(CPUCYCLES_REFUSED_KERNEL, CPUCYCLES_ACCESS_MODULE, 0, 0, 0);
  w.user_access.known = 1;
  expect(&w, "a kernel that manages the counter", "not-this-system",
         "kernel.perf_user_access is 0", "not used here", 0);
  w = refused(CPUCYCLES_REFUSED_OSCLOCK, 0, EINVAL, 0, 0);
  expect(&w, "the OS clock failing", "osclock-error", "EINVAL", 0, 0);
  w = refused(CPUCYCLES_REFUSED_NOCLOCK, 0, 0, 0, 0);
  expect(&w, "no clock", "no-clock", "no clock", 0, 0);
  w = refused(CPUCYCLES_REFUSED, 0, 0, 0, 0);
  expect(&w, "a setup without a reason", "setup-refused", "without saying why", 0, 0);
}

static struct cpucycles_why faulted(int sig, int access, int in_setup)
{
  struct cpucycles_why w;
  memset(&w, 0, sizeof w);
  w.stage = CPUCYCLES_WHY_FAULT;
  w.signal = (unsigned char)sig;
  w.access = (unsigned char)access;
  w.in_setup = (unsigned char)in_setup;
  w.privileged = -1;
  return w;
}

static void faults(void)
{
  struct cpucycles_why w;
  char e[64];

  w = faulted(SIGILL, CPUCYCLES_ACCESS_MODULE, 0);
  snprintf(e, sizeof e, "reading it raised SIGILL (signal %d)", SIGILL);
  expect(&w, "SIGILL where a module grants access", "fault-sigill", e, "kernel module", 0);
  w = faulted(SIGILL, CPUCYCLES_ACCESS_ALL, 0);
  w.user_access.known = 1;
  w.user_access.value = 1;
  expect(&w, "SIGILL where perf_user_access 2 grants it, at 1", "fault-sigill",
         "kernel.perf_user_access is 1", "sysctl kernel.perf_user_access=2", 0);
  w.user_access.known = 0;
  w.user_access.error = ENOENT;
  expect(&w, "SIGILL, no perf_user_access", "fault-sigill", "does not exist",
         "nothing inside this machine enables it", 0);
  w = faulted(SIGILL, CPUCYCLES_ACCESS_EVENT, 1);
  w.user_access.known = 1;
  snprintf(e, sizeof e, "its setup raised SIGILL (signal %d)", SIGILL);
  expect(&w, "SIGILL in setup with perf_user_access 0", "fault-sigill", e,
         "sysctl kernel.perf_user_access=1", 0);
  w = faulted(SIGSEGV, CPUCYCLES_ACCESS_OPEN, 0);
  snprintf(e, sizeof e, "SIGSEGV (signal %d)", SIGSEGV);
  expect(&w, "SIGSEGV of an open instruction", "fault-sigsegv", e, "forbids it", 0);
  w = faulted(SIGSEGV, CPUCYCLES_ACCESS_RDPMC_ALL, 0);
  w.rdpmc.known = 1;
  expect(&w, "SIGSEGV of RDPMC at rdpmc 0", "fault-sigsegv", "/sys/devices/cpu/rdpmc is 0",
         "cpucycles-open", 0);
  w = faulted(SIGBUS, 0, 0);
  expect(&w, "SIGBUS", "fault-sigbus", "SIGBUS", 0, 0);
  w = faulted(SIGFPE, 0, 0);
  expect(&w, "SIGFPE", "fault-sigfpe", "SIGFPE", 0, 0);
  w = faulted(SIGTRAP, 0, 0);
  snprintf(e, sizeof e, "raised signal (signal %d)", SIGTRAP);
  expect(&w, "another signal", "fault-signal", e, 0, 0);
}

/* FreeBSD's account of the same faults: the system's, through hwpmc,
   never Linux's settings nor a permission; an open instruction's fault
   reads as anywhere else. */
static void faults_freebsd(void)
{
  static const unsigned char granted_by[] = {
    CPUCYCLES_ACCESS_MODULE, CPUCYCLES_ACCESS_EVENT, CPUCYCLES_ACCESS_ALL,
    CPUCYCLES_ACCESS_RDPMC, CPUCYCLES_ACCESS_RDPMC_ALL,
  };
  struct cpucycles_why w;
  size_t i;
  for (i = 0; i < sizeof granted_by; ++i) {
    w = faulted(granted_by[i] >= CPUCYCLES_ACCESS_RDPMC ? SIGBUS : SIGILL, granted_by[i], 0);
    w.system = CPUCYCLES_WHY_FREEBSD;
    expect(&w, "FreeBSD's fault of a counter a grant would open",
           granted_by[i] >= CPUCYCLES_ACCESS_RDPMC ? "fault-sigbus" : "fault-sigill",
           "does not use hwpmc", "it is the system's, not a permission", 0);
    CHECK(!strstr(line, "sysctl kernel.") && !strstr(line, "/sys/") &&
              !strstr(line, "cpucycles-open"),
          "FreeBSD's line (access %d) names none of Linux's settings (%s)", granted_by[i], line);
  }
  w = faulted(SIGILL, CPUCYCLES_ACCESS_OPEN, 0);
  w.system = CPUCYCLES_WHY_FREEBSD;
  expect(&w, "FreeBSD's fault of an open instruction", "fault-sigill", "forbids it", 0, 0);
}

static void readings_and_rates(void)
{
  struct cpucycles_why w;
  memset(&w, 0, sizeof w);
  w.stage = CPUCYCLES_WHY_READINGS;
  w.frozen = 10;
  w.reading[0] = 42;
  expect(&w, "frozen", "reading-frozen", "in 10 runs it never increased (it stood at 42)", 0, 0);
  w.frozen = 3;
  w.decreased = 7;
  w.reading[0] = 900;
  w.reading[1] = 899;
  expect(&w, "decreased", "reading-decreased", "in 7 of 10 runs a reading went back (from 900 "
         "to 899)", 0, 0);
  memset(&w, 0, sizeof w);
  w.stage = CPUCYCLES_WHY_RATE;
  expect(&w, "no rate", "rate-unmeasured", "could not be measured", 0, 0);
  w.reading[0] = 23912345;
  w.reading[1] = PERSECOND;
  expect(&w, "a rate that fits no ratio", "rate-disagrees",
         "its rate, 23912345 Hz measured against the OS clock, and the estimate of 2400000000",
         "/etc/cpucyclespersecond", 0);
  w.stated = 1;
  expect(&w, "a stated rate", "rate-disagrees", "as its setup states", 0, 0);
  memset(&w, 0, sizeof w);
  w.stage = CPUCYCLES_WHY_KIND;
  w.seen[0] = CPUCYCLES_CORE;
  w.seen[1] = CPUCYCLES_OFFCORE;
  w.confirming = 37;
  expect(&w, "another kind at the confirmation", "kind-changed",
         "in its confirmation alone (its trial passed at precision 37)", 0, 0);
  memset(&w, 0, sizeof w);
  w.stage = CPUCYCLES_WHY_UNGUARDED;
  expect(&w, "no guard", "unguarded", "guard could not be installed", 0, 0);
  memset(&w, 0, sizeof w);
  expect(&w, "nothing recorded", "unexplained", "no reason", 0, 0);
}

static void cut(void)
{
  struct cpucycles_why w;
  char small[20];
  int n;
  memset(&w, 0, sizeof w);
  w.stage = CPUCYCLES_WHY_UNGUARDED;
  n = cpucycles_why_format(small, sizeof small, "c", &w);
  CHECK(n > (int)sizeof small && strlen(small) == sizeof small - 1 &&
            strncmp(small, "cpucycles why c ung", sizeof small - 1) == 0,
        "a line longer than the buffer is cut and terminated, its length told (%d, %s)", n, small);
}

/* ---- traced selections of synthetic counters ---- */

/* A page no read may touch (null would be undefined behaviour, which
   the sanitizers report, before the fault). */
static volatile int *unmapped;
static long long step7_value, down_value = 1000000;
static long long step7_read(void) { return step7_value += 7; }
static long long frozen_read(void) { return 42; }
static long long down_read(void) { return down_value -= 3; }
static long long segv_read(void) { return *unmapped; }
static long long odd_read(void) { return (long long)((double)cpucycles_os_ns() * (3 * 2.4 / 301)); }
static int core(struct cpucycles_setup *s) { s->kind = CPUCYCLES_CORE; return 0; }
static int unknown(struct cpucycles_setup *s) { cpucycles_setup_rate(s, 0); return 0; }
static int lacks(struct cpucycles_setup *s)
{
  s->access = CPUCYCLES_ACCESS_RDPMC_ALL;
  return cpucycles_refuse(s, CPUCYCLES_REFUSED_CPUID, 1, 0, 0);
}
/* An illegal instruction where one is at hand, else a read of the
   inaccessible page: a fault the kernel raises, which the guard takes (a raise() would be
   sent, and passed on to the program). The clobber keeps the store of
   what grants the read before the fault, as a call would. */
static int faulting_setup(struct cpucycles_setup *s)
{
  s->access = CPUCYCLES_ACCESS_MODULE;
#if defined(__x86_64__) || defined(__i386__)
  __asm__ volatile("ud2" : : : "memory");
#elif defined(__aarch64__)
  __asm__ volatile(".inst 0x00000000" : : : "memory");
#else
  (void)*unmapped;
#endif
  return 0;
}
/* Works in its trial, refuses its confirmation. */
static int confirm_setups;
static int once_setup(struct cpucycles_setup *s)
{
  if (++confirm_setups > 1) return cpucycles_refuse(s, CPUCYCLES_REFUSED_HYBRID, 2, 0, 0);
  return core(s);
}

static const struct cpucycles_counter c_step7 = { step7_read, core, 0 },
                                      c_frozen = { frozen_read, core, 0 },
                                      c_down = { down_read, core, 0 },
                                      c_segv = { segv_read, core, 0 },
                                      c_faulting = { step7_read, faulting_setup, 0 },
                                      c_lacks = { step7_read, lacks, 0 },
                                      c_odd = { odd_read, unknown, 0 },
                                      c_once = { step7_read, once_setup, 0 };

static const struct cpucycles_option table[] = {
  { "frozen", &c_frozen, 0, 0 },   { "down", &c_down, 0, 0 }, { "segv", &c_segv, 0, 0 },
  { "faulting", &c_faulting, 0, 0 }, { "lacks", &c_lacks, 0, 0 }, { "odd", &c_odd, 0, 0 },
  { "once", &c_once, 0, 0 },       { "step7", &c_step7, 0, 0 },
};
#define N (int)(sizeof table / sizeof table[0])

/* The OS's settings from a tree that has none of them, so that the lines
   do not depend on this machine. */
static int traced(const void *arg)
{
  struct cpucycles_persecond_source ps = { PERSECOND, 0 };
  struct cpucycles_trial trials[N];
  struct cpucycles_why whys[N];
  (void)arg;
  return cpucycles_select_why(table, N, &ps, trials, whys, "/nonexistent-cpucycles-why", 0) < 0;
}

static void selection(void)
{
  static char out[16384];
  char want[128];
  int status;

  /* the trial of "once" is its first setup, its confirmation the second */
  status = childout(traced, 0, out, sizeof out, 60);
  CHECK(status == 0, "a traced selection of synthetic counters ran and chose (status %d)", status);
  CHECK(childout_line(out, "cpucycles why frozen reading-frozen ", line, sizeof line) &&
            strstr(line, "in 10 runs it never increased (it stood at 42)"),
        "a counter that stands still: reading-frozen, at its value, in 10 runs (%s)", line);
  CHECK(childout_line(out, "cpucycles why down reading-decreased ", line, sizeof line) &&
            strstr(line, "in 10 of 10 runs a reading went back"),
        "a counter that goes back: reading-decreased in every run (%s)", line);
  snprintf(want, sizeof want, "reading it raised SIGSEGV (signal %d)", SIGSEGV);
  CHECK(childout_line(out, "cpucycles why segv fault-sigsegv ", line, sizeof line) &&
            strstr(line, want),
        "a read of an unmapped address: fault-sigsegv, the signal named (%s)", line);
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
  snprintf(want, sizeof want, "its setup raised SIGILL (signal %d)", SIGILL);
  CHECK(childout_line(out, "cpucycles why faulting fault-sigill ", line, sizeof line) &&
            strstr(line, want) && strstr(line, "kernel module"),
        "an illegal instruction in setup: fault-sigill, with what grants the counter (%s)", line);
#else
  snprintf(want, sizeof want, "its setup raised SIGSEGV (signal %d)", SIGSEGV);
  CHECK(childout_line(out, "cpucycles why faulting fault-sigsegv ", line, sizeof line) &&
            strstr(line, want),
        "a fault in setup: fault-sigsegv (%s)", line);
#endif
  CHECK(childout_line(out, "cpucycles why lacks cpu-lacks ", line, sizeof line) &&
            strstr(line, "version 1 with 0 fixed counters"),
        "a setup's own refusal passes its figures to the line (%s)", line);
  CHECK(childout_line(out, "cpucycles why odd rate-disagrees ", line, sizeof line) &&
            strstr(line, "Hz measured against the OS clock, and the estimate of 2400000000"),
        "a rate that fits no ratio: rate-disagrees, with the rate and the estimate (%s)", line);
  CHECK(childout_line(out, "cpucycles why once hybrid-cores in its confirmation alone ", line,
                     sizeof line),
        "a counter that passes its trial and refuses its confirmation says so (%s)", line);
  CHECK(!childout_line(out, "cpucycles why step7 ", line, sizeof line) &&
            strstr(out, "cpucycles tracesetup 7 step7 precision 7 "),
        "the counter that works has no why line, and the tracesetup lines stay as they are");
  CHECK(strstr(out, "cpucycles why") > strstr(out, "cpucycles tracesetup 7 "),
        "the why lines come after every tracesetup line");
}

int main(void)
{
  kernel_answers();
  setups();
  faults();
  faults_freebsd();
  readings_and_rates();
  cut();
  unmapped = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (unmapped == MAP_FAILED) CHECK(0, "an inaccessible page for a faulting read");
  else if (fork_works()) selection();
  else SKIP("traced selections of synthetic counters: fork() does not work here");
  return check_done();
}
