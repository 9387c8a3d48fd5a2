/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* why.c: a failed counter's record told in one line: a code, what the
   trial saw, what that means and what would enable the counter (why.h,
   doc/why.md). A pure function of the record, so that every code can be
   tested without the system that gives it. Runs only in a traced first
   call. */
#include <errno.h>
#include <signal.h>
/* Windows' <signal.h> has no SIGBUS, and no exception the guard catches
   maps to it (guard-windows.c): a number no other signal there has keeps
   the table below whole. */
#if defined(_WIN32) && !defined(SIGBUS)
#define SIGBUS 10
#endif
#include <stdarg.h>
#include <stdio.h>
#include "internal.h"
#include "why.h"

/* The errno names the kernel's answers use, spelled as in <errno.h>. */
static const struct {
  int number;
  char name[12];
} errnos[] = {
  { EPERM, "EPERM" },   { ENOENT, "ENOENT" },   { ESRCH, "ESRCH" },   { EINTR, "EINTR" },
  { EIO, "EIO" },       { E2BIG, "E2BIG" },     { EBADF, "EBADF" },   { EAGAIN, "EAGAIN" },
  { ENOMEM, "ENOMEM" }, { EACCES, "EACCES" },   { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
  { ENODEV, "ENODEV" }, { ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" }, { EINVAL, "EINVAL" },
  { ENFILE, "ENFILE" }, { EMFILE, "EMFILE" },   { ENOSPC, "ENOSPC" }, { ENOSYS, "ENOSYS" },
  { EOPNOTSUPP, "EOPNOTSUPP" },
};

__attribute__((cold)) static const char *errno_name(int e)
{
  size_t i;
  for (i = 0; i < sizeof errnos / sizeof errnos[0]; ++i)
    if (errnos[i].number == e) return errnos[i].name;
  return "errno";
}

/* Every code a line may give, in the order of doc/why.md, which lists
   them (test/checks/why.py compares the two). */
enum code {
  PERF_NOEVENT, PERF_PARANOID, PERF_POLICY, PERF_REFUSED, PERF_NOSYS, PERF_NOFD, PERF_ERROR,
  PERF_NOMAP, RDPMC_CLOSED, USER_ACCESS_OFF, COUNTER_ELSEWHERE, HYBRID_CORES, CPU_LACKS,
  NOT_THIS_SYSTEM, OSCLOCK_ERROR, NO_CLOCK, FAULT_SIGILL, FAULT_SIGSEGV, FAULT_SIGBUS,
  FAULT_SIGFPE, FAULT_SIGNAL, READING_FROZEN, READING_DECREASED, RATE_UNMEASURED, RATE_DISAGREES,
  KIND_CHANGED, UNGUARDED, SETUP_REFUSED, UNEXPLAINED
};
static const char codes[][18] = {
  "perf-noevent", "perf-paranoid", "perf-policy", "perf-refused", "perf-nosys", "perf-nofd",
  "perf-error", "perf-nomap", "rdpmc-closed", "user-access-off", "counter-elsewhere",
  "hybrid-cores", "cpu-lacks", "not-this-system", "osclock-error", "no-clock", "fault-sigill",
  "fault-sigsegv", "fault-sigbus", "fault-sigfpe", "fault-signal", "reading-frozen",
  "reading-decreased", "rate-unmeasured", "rate-disagrees", "kind-changed", "unguarded",
  "setup-refused", "unexplained",
};

/* The signals a probe may raise, in the order of their codes
   (FAULT_SIGILL on), and the name of any other. */
static const struct {
  int number;
  char name[8];
} signals[] = {
  { SIGILL, "SIGILL" }, { SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" },
  { 0, "signal" },
};

__attribute__((cold)) static int signal_at(int sig)
{
  int i = 0;
  while (signals[i].number && signals[i].number != sig) ++i;
  return i;
}

/* The line as it grows: what snprintf would have written in all. */
struct line {
  char *at;
  size_t left;
  int length;
};

__attribute__((cold)) static void put(struct line *l, const char *format, ...)
{
  va_list ap;
  int n;
  va_start(ap, format);
  n = vsnprintf(l->at, l->left, format, ap);
  va_end(ap);
  if (n < 0) return;
  l->length += n;
  if ((size_t)n >= l->left) n = l->left ? (int)l->left - 1 : 0;
  l->at += n;
  l->left -= (size_t)n;
}

__attribute__((cold)) static void put_errno(struct line *l, int e)
{
  put(l, "%s (errno %d)", errno_name(e), e);
}

/* Whether a setting's file does not exist: this kernel has no such
   setting (or no driver offers it). */
__attribute__((cold)) static int absent(const struct cpucycles_why_setting *s)
{
  return !s->known && (s->error == ENOENT || s->error == ENOTDIR);
}

/* "name is V", or why it could not be read. */
__attribute__((cold)) static void put_setting(struct line *l, const char *name,
                                              const struct cpucycles_why_setting *s)
{
  if (s->known) put(l, "%s is %d", name, s->value);
  else if (absent(s)) put(l, "%s does not exist", name);
  else if (s->error) {
    put(l, "%s could not be read: ", name);
    put_errno(l, s->error);
  } else put(l, "%s was not read", name);
}

/* ---- perf_event_open's answers ---- */

__attribute__((cold)) static int denied(int e)
{
  return e == EACCES || e == EPERM;
}

/* The paranoid value at which the refused event needs privilege: the
   kernel (kernel/events/core.c) refuses an event counting the kernel
   (exclude_kernel 0) above 1, and Debian's, Ubuntu's and Android's
   kernels refuse every event above 2, to a process without CAP_PERFMON or
   CAP_SYS_ADMIN. The library asks with the kernel left out first, and
   then counting it, after any refusal that is not of the event itself.
   The second answer explains the failure only where the first said the
   PMU cannot leave the kernel out (EOPNOTSUPP, EINVAL): after EMFILE,
   say, a user gets EACCES there at paranoid 2 (an arm64 guest did), and
   the descriptors are what failed. 0: not a denial. */
__attribute__((cold)) static int paranoid_level(const struct cpucycles_why *w)
{
  if (denied(w->seen[0])) return 3;
  if ((w->seen[0] == EOPNOTSUPP || w->seen[0] == EINVAL) && denied(w->seen[1])) return 2;
  return 0;
}

__attribute__((cold)) static enum code perf_code(const struct cpucycles_why *w)
{
  int e = w->seen[0], level = paranoid_level(w);
  if (level) {
    if (!w->paranoid.known) return PERF_REFUSED;
    if (w->paranoid.value >= level && w->privileged != 1) return PERF_PARANOID;
    return PERF_POLICY;
  }
  if (e == ENOENT || e == ENODEV || e == EOPNOTSUPP) return PERF_NOEVENT;
  if (e == ENOSYS) return PERF_NOSYS;
  if (e == EMFILE || e == ENFILE) return PERF_NOFD;
  return PERF_ERROR;
}

/* x86 grants user reads of its counters with the rdpmc setting, arm64 and
   RISC-V with perf_user_access. */
__attribute__((cold)) static int rdpmc(const struct cpucycles_why *w)
{
  return w->access == CPUCYCLES_ACCESS_RDPMC || w->access == CPUCYCLES_ACCESS_RDPMC_ALL;
}

__attribute__((cold)) static enum code refused_code(const struct cpucycles_why *w)
{
  switch (w->refusal) {
  case CPUCYCLES_REFUSED_PERF: return perf_code(w);
  case CPUCYCLES_REFUSED_MAP: return PERF_NOMAP;
  case CPUCYCLES_REFUSED_CLOSED: return rdpmc(w) ? RDPMC_CLOSED : USER_ACCESS_OFF;
  case CPUCYCLES_REFUSED_ELSEWHERE: return COUNTER_ELSEWHERE;
  case CPUCYCLES_REFUSED_HYBRID: return HYBRID_CORES;
  case CPUCYCLES_REFUSED_CPUID:
  case CPUCYCLES_REFUSED_CCRES: return CPU_LACKS;
  case CPUCYCLES_REFUSED_KERNEL: return NOT_THIS_SYSTEM;
  case CPUCYCLES_REFUSED_OSCLOCK: return OSCLOCK_ERROR;
  case CPUCYCLES_REFUSED_NOCLOCK: return NO_CLOCK;
  default: return SETUP_REFUSED;
  }
}

/* Out of line: inlined, through why_code, into cpucycles_why_format, it
   made the library's .text 14 bytes larger (gcc 12, -Oz). */
__attribute__((cold, noinline)) static enum code code_of(const struct cpucycles_why *w)
{
  switch (w->stage) {
  case CPUCYCLES_WHY_REFUSED: return refused_code(w);
  case CPUCYCLES_WHY_FAULT: return (enum code)(FAULT_SIGILL + signal_at(w->signal));
  case CPUCYCLES_WHY_READINGS: return w->decreased ? READING_DECREASED : READING_FROZEN;
  case CPUCYCLES_WHY_RATE: return w->reading[0] > 0 ? RATE_DISAGREES : RATE_UNMEASURED;
  case CPUCYCLES_WHY_KIND: return KIND_CHANGED;
  case CPUCYCLES_WHY_UNGUARDED: return UNGUARDED;
  default: return UNEXPLAINED;
  }
}

/* The code of a failure: its second word, as doc/why.md lists them. */
__attribute__((cold)) static const char *why_code(const struct cpucycles_why *w)
{
  return codes[code_of(w)];
}

static const char nothing[] = "; nothing known enables it";
static const char nothing_here[] = "; nothing inside this machine enables it";

/* What perf_event_open said: to the event leaving the kernel out, and to
   the one counting it where that was asked too. */
__attribute__((cold)) static void put_perf_answer(struct line *l, const struct cpucycles_why *w)
{
  put(l, "perf_event_open said ");
  put_errno(l, w->seen[0]);
  if (w->seen[2])
    put(l, " to this process's first hardware cycle event, and was not asked again");
  else put(l, " to a cycle event of this thread in user mode");
  if (w->seen[1]) {
    put(l, " and ");
    put_errno(l, w->seen[1]);
    put(l, " to one counting the kernel too");
  }
}

__attribute__((cold)) static void put_perf(struct line *l, const struct cpucycles_why *w)
{
  int level = paranoid_level(w);
  put_perf_answer(l, w);
  if (level) {
    put(l, ", ");
    put_setting(l, "kernel.perf_event_paranoid", &w->paranoid);
    if (w->privileged >= 0)
      put(l, ", this process %s CAP_PERFMON or CAP_SYS_ADMIN",
          w->privileged ? "holding" : "without");
  }
  switch (perf_code(w)) {
  case PERF_PARANOID:
    if (level == 3)
      put(l, ": at 3 and above Debian's, Ubuntu's and Android's kernels refuse perf events to "
             "unprivileged processes; enable with cpucycles-open as root, or sysctl "
             "kernel.perf_event_paranoid=2");
    else
      put(l, ": this PMU cannot leave the kernel out, and counting the kernel takes "
             "kernel.perf_event_paranoid 1 or less; enable with sysctl "
             "kernel.perf_event_paranoid=1 as root");
    break;
  case PERF_POLICY:
    put(l, ": %s, so a policy refused it (a seccomp filter, a container's profile, an LSM such as "
           "SELinux); enable in that policy (allow perf_event_open), no sysctl does",
        w->paranoid.value >= level ? "no paranoid value binds such a process"
                                   : "the paranoid value allows it");
    break;
  case PERF_REFUSED:
    put(l, ": that setting or a policy refused it; enable with cpucycles-open as root where the "
           "setting refuses, else in the policy");
    break;
  case PERF_NOEVENT:
    put(l, ": the kernel has no hardware cycle event here (no PMU driver for this CPU, or a "
           "virtual machine without a virtual PMU)%s (a virtual machine's host can give it a PMU)",
        nothing_here);
    break;
  case PERF_NOSYS:
    put(l, ", ");
    put_setting(l, "kernel.perf_event_paranoid", &w->paranoid);
    if (w->paranoid.known)
      put(l, ": this kernel has perf events, so a filter answered for it (a seccomp filter, a "
             "container's profile); enable in that policy (allow perf_event_open)");
    else
      put(l, ": a kernel without perf events, or a filter; only a kernel with perf events "
             "(CONFIG_PERF_EVENTS) or a policy that allows perf_event_open enables it");
    break;
  case PERF_NOFD:
    put(l, ": no file descriptor left for the event (the process's limit, RLIMIT_NOFILE, or the "
           "system's); enable with a higher limit (ulimit -n) or fewer files open");
    break;
  default: put(l, ": the kernel refused the event as asked%s", nothing);
  }
}

/* x86's setting and what it means: RDPMC refused to user mode. */
__attribute__((cold)) static void put_rdpmc(struct line *l, const struct cpucycles_why *w)
{
  put_setting(l, "/sys/devices/cpu/rdpmc", &w->rdpmc);
  if (absent(&w->rdpmc))
    put(l, ": no x86 PMU driver offers RDPMC%s", nothing_here);
  else if (!w->rdpmc.known)
    put(l, ": RDPMC is refused to user mode%s", nothing);
  else
    put(l, ": RDPMC %s is refused to user mode; enable with cpucycles-open as root (it writes 2)",
        w->access == CPUCYCLES_ACCESS_RDPMC_ALL ? "without a perf event" : "of its event");
}

/* arm64's and RISC-V's setting and what it means for the counter. */
__attribute__((cold)) static void put_user_access(struct line *l, const struct cpucycles_why *w)
{
  put_setting(l, "kernel.perf_user_access", &w->user_access);
  if (absent(&w->user_access))
    put(l, ": this kernel has no such setting (arm64 before Linux 5.17, RISC-V before 6.6), and "
           "it or the firmware keeps user access off%s but a newer kernel", nothing_here);
  else if (!w->user_access.known)
    put(l, ": user access is off%s", nothing);
  else if (w->access == CPUCYCLES_ACCESS_ALL && w->user_access.value != 2)
    put(l, ": user mode reads it without a perf event only at 2; enable with sysctl "
           "kernel.perf_user_access=2 as root");
  else if (w->user_access.value == 0)
    put(l, ": the kernel keeps user access off; enable with cpucycles-open as root, or sysctl "
           "kernel.perf_user_access=1");
  else
    put(l, ": the kernel's PMU driver gives user mode no counter here, or took it back%s",
        nothing);
}

/* User mode may not read the counter, as the page or the OS says. */
__attribute__((cold)) static void put_closed(struct line *l, const struct cpucycles_why *w)
{
  if (w->seen[0] == 1)
    put(l, "the event opened, but its page names no counter user mode may read (index %d, "
           "cap_user_rdpmc %d), ", w->seen[1], w->seen[2]);
  if (rdpmc(w)) put_rdpmc(l, w);
  else put_user_access(l, w);
}

/* FreeBSD: a counter that needs more than the CPU gives every process is
   the system's to give, through hwpmc(4), which the library does not
   use; neither a setting nor a privilege of this process changes it. */
__attribute__((cold)) static void put_fault_freebsd(struct line *l, const struct cpucycles_why *w)
{
  switch (w->access) {
  case CPUCYCLES_ACCESS_RDPMC:
  case CPUCYCLES_ACCESS_RDPMC_ALL:
    put(l, ": FreeBSD lets user mode run RDPMC only in a process to which hwpmc(4) gave a counter, "
           "and this library does not use hwpmc");
    break;
  case CPUCYCLES_ACCESS_EVENT:
  case CPUCYCLES_ACCESS_ALL:
    put(l, ": FreeBSD's kernel decides alone whether user mode may read this counter (no sysctl "
           "says), and this library does not use hwpmc");
    break;
  default:
    put(l, ": FreeBSD keeps user access to the PMU off and leaves the PMU to hwpmc(4), and this "
           "library does not use hwpmc");
  }
  put(l, "; it is the system's, not a permission this process lacks, and no setting enables it");
}

/* What a fault means, from what grants the read. */
__attribute__((cold)) static void put_fault(struct line *l, const struct cpucycles_why *w)
{
  put(l, "%s raised %s (signal %d)", w->in_setup ? "its setup" : "reading it",
      signals[signal_at(w->signal)].name, w->signal);
  if (w->system == CPUCYCLES_WHY_FREEBSD && w->access != CPUCYCLES_ACCESS_OPEN) {
    put_fault_freebsd(l, w);
    return;
  }
  switch (w->access) {
  case CPUCYCLES_ACCESS_MODULE:
    put(l, ": user access to this counter is off; only a kernel module that turns it on enables "
           "it (Linux has no setting for it)");
    break;
  case CPUCYCLES_ACCESS_EVENT:
  case CPUCYCLES_ACCESS_ALL:
    put(l, ", ");
    put_user_access(l, w);
    break;
  case CPUCYCLES_ACCESS_RDPMC:
  case CPUCYCLES_ACCESS_RDPMC_ALL:
    put(l, ", ");
    put_rdpmc(l, w);
    break;
  default:
    put(l, ": user mode may not run its instruction here (the kernel, a hypervisor, an emulator "
           "or the process itself forbids it)%s", nothing);
  }
}

__attribute__((cold)) static void put_readings(struct line *l, const struct cpucycles_why *w)
{
  int runs = w->frozen + w->decreased;
  if (w->decreased) {
    put(l, "in %d of %d runs a reading went back (from %lld to %lld): the counter jumps back "
           "(restarted or reprogrammed by someone else, or per-core counters out of step)",
        w->decreased, runs, w->reading[0], w->reading[1]);
  } else {
    put(l, "in %d runs it never increased (it stood at %lld): the counter does not run here (an "
           "emulator that keeps it still, a counter stopped or never started)", runs,
        w->reading[0]);
  }
  put(l, "%s", nothing);
}

__attribute__((cold)) static void put_rate(struct line *l, const struct cpucycles_why *w)
{
  if (w->reading[0] <= 0) {
    put(l, "its rate could not be measured against the OS clock: it did not advance steadily "
           "while that ran%s", nothing);
    return;
  }
  put(l, "its rate, %lld Hz %s, and the estimate of %lld cycles per second are in no ratio it "
         "can be scaled by (%s); where the estimate is wrong, set it (/etc/cpucyclespersecond, "
         "or cpucyclespersecond in the environment)",
      w->reading[0], w->stated ? "as its setup states" : "measured against the OS clock",
      w->reading[1],
      w->stated ? "too large or too small" : "none of m/2^k, k up to 8, within 0.02%");
}

__attribute__((cold)) static void put_refused(struct line *l, const struct cpucycles_why *w)
{
  switch (w->refusal) {
  case CPUCYCLES_REFUSED_PERF: put_perf(l, w); break;
  case CPUCYCLES_REFUSED_MAP:
    put(l, "the event opened, but mmap of its page said ");
    put_errno(l, w->seen[0]);
    put(l, ": the read needs that page%s", nothing);
    break;
  case CPUCYCLES_REFUSED_CLOSED: put_closed(l, w); break;
  case CPUCYCLES_REFUSED_ELSEWHERE:
    put(l, "the event's page names counter %#x, this counter reads %#x only: the kernel put the "
           "event on another hardware counter", (unsigned)w->seen[0], (unsigned)w->seen[1]);
    if (w->watchdog.known && w->watchdog.value)
      put(l, ", and kernel.nmi_watchdog is %d, whose event may hold that one; cpucycles-open as "
             "root (kernel.nmi_watchdog=0) may free it", w->watchdog.value);
    else put(l, "%s", nothing);
    break;
  case CPUCYCLES_REFUSED_HYBRID:
    put(l, "its events opened on %d core PMUs (hybrid cores): one counter read cannot follow "
           "a thread across core types; nothing to enable", w->seen[0]);
    break;
  case CPUCYCLES_REFUSED_CPUID:
    put(l, "CPUID leaf 0xA reports performance monitoring version %d with %d fixed counters: "
           "this CPU (or the virtual CPU a hypervisor shows) has no fixed cycle counter%s",
        w->seen[0], w->seen[1], nothing_here);
    break;
  case CPUCYCLES_REFUSED_CCRES:
    put(l, "hardware register 3 (cycles per count) reads 0: the CPU reports no cycle count%s",
        nothing_here);
    break;
  case CPUCYCLES_REFUSED_KERNEL:
    put_setting(l, "kernel.perf_user_access", &w->user_access);
    put(l, ": this kernel manages user access to the counter itself and may take it back at any "
           "context switch, so the counter is not used here; nothing to enable (a counter that "
           "reads it through a perf event is the one for such a kernel)");
    break;
  case CPUCYCLES_REFUSED_OSCLOCK:
    put(l, "the OS clock call failed, ");
    put_errno(l, w->seen[0]);
    put(l, ": the system refuses this clock%s", nothing);
    break;
  case CPUCYCLES_REFUSED_NOCLOCK:
    put(l, "its setup says it is no clock: it reads 0, what cpucycles() becomes when nothing "
           "works; nothing to enable");
    break;
  default: put(l, "its setup refused without saying why%s", nothing);
  }
}

__attribute__((cold)) int cpucycles_why_format(char *buf, size_t size, const char *name,
                                               const struct cpucycles_why *w)
{
  struct line l;
  l.at = buf;
  l.left = size;
  l.length = 0;
  if (size) *buf = 0;
  put(&l, "cpucycles why %s %s ", name, why_code(w));
  if (w->confirming)
    put(&l, "in its confirmation alone (its trial passed at precision %lld): ", w->confirming);
  switch (w->stage) {
  case CPUCYCLES_WHY_REFUSED: put_refused(&l, w); break;
  case CPUCYCLES_WHY_FAULT: put_fault(&l, w); break;
  case CPUCYCLES_WHY_READINGS: put_readings(&l, w); break;
  case CPUCYCLES_WHY_RATE: put_rate(&l, w); break;
  case CPUCYCLES_WHY_KIND:
    put(&l, "set up again alone, it described itself as kind %d, not %d as in its trial%s",
        w->seen[1], w->seen[0], nothing);
    break;
  case CPUCYCLES_WHY_UNGUARDED:
    put(&l, "the signal guard could not be installed, and a counter whose read may fault is not "
            "tried without it%s", nothing);
    break;
  default: put(&l, "its trial recorded no reason%s", nothing);
  }
  return l.length;
}

__attribute__((cold)) void cpucycles_why_print(const char *name, const struct cpucycles_why *w)
{
  char line[1024];
  cpucycles_why_format(line, sizeof line, name, w);
  printf("%s\n", line);
}
