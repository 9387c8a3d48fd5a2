/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* whyperf.c: the `cpucycles why` lines of this build's real counters when
   the system refuses them on purpose, each case in a fresh child that
   traces the selection (cpucycles_select_why) and whose output is read
   here. perf_event_open is answered by a seccomp filter with EPERM,
   EACCES, ENOSYS and ENOENT; kernel.perf_event_paranoid comes from a
   fixture tree (the selection's root), at a value that allows the event
   and at one that does not, with the process's capabilities dropped or
   kept; descriptors run out under a tiny RLIMIT_NOFILE; and on x86 the
   time-stamp counter is forbidden (prctl PR_SET_TSC), so that its read
   faults. Every counter whose line blames perf_event_open must blame it
   the way the case makes it answer; default-perfevent, built on every
   Linux host, must have such a line. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "childout.h"
#include "check.h"
#include "cycles.h"
#include "deny.h"
#include "forkable.h"
#include "internal.h"
#include "tree.h"
#include "why.h"

#define PERSECOND 2400000000LL

/* A sanitizer's runtime reads the clock itself (AddressSanitizer's
   allocator calls clock_gettime, whose vDSO runs RDTSC), outside any
   probe: forbidding RDTSC there kills the process before the trace. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#endif

/* What a case does in its child before the selection. */
struct scene {
  const char *what;
  int filter;        /* perf_event_open's errno from a seccomp filter; 0: none */
  int paranoid;      /* the fixture's perf_event_paranoid; -100: no such file */
  int drop;          /* drop every capability first */
  int descriptors;   /* leave no descriptor free */
  int no_tsc;        /* RDTSC faults (x86) */
};

static char root[64];

static int drop_capabilities(void)
{
  struct {
    uint32_t version;
    int pid;
  } header = { 0x20080522, 0 };
  uint32_t none[6] = { 0, 0, 0, 0, 0, 0 };
  return (int)syscall(SYS_capset, &header, none);
}

#if defined(PR_SET_TSC) && (defined(__x86_64__) || defined(__i386__))
static sigjmp_buf tsc_fault;

static void on_tsc_fault(int sig)
{
  (void)sig;
  siglongjmp(tsc_fault, 1);
}

/* Whether RDTSC faults now: a kernel under some hypervisors accepts
   PR_SET_TSC, but the hypervisor runs the instruction for the guest
   regardless, and the scene cannot be built there. */
static int rdtsc_faults(void)
{
  struct sigaction sa, old;
  volatile int faulted = 0;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_tsc_fault;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSEGV, &sa, &old) != 0) return 0;
  if (sigsetjmp(tsc_fault, 1) == 0) {
    unsigned lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    (void)lo;
    (void)hi;
  } else {
    faulted = 1;
  }
  sigaction(SIGSEGV, &old, 0);
  return faulted;
}
#endif

/* 0 with the scene set up and the selection traced; 10 when the scene
   could not be built (reported as a skip), 11 when RDTSC does not fault
   though forbidden. */
static int traced(const void *arg)
{
  const struct scene *sc = arg;
  struct cpucycles_persecond_source ps = { PERSECOND, 0 };
  struct cpucycles_trial *trials = calloc((size_t)cpucycles_noptions, sizeof *trials);
  struct cpucycles_why *whys = calloc((size_t)cpucycles_noptions, sizeof *whys);
  if (!trials || !whys) return 10;
  if (sc->drop && drop_capabilities() != 0) return 10;
#ifdef HAVE_SECCOMP_HEADERS
  if (sc->filter) {
    long nr = SYS_perf_event_open;
    if (deny_calls(&nr, 1, sc->filter) != 0) return 10;
  }
#else
  if (sc->filter) return 10;
#endif
  if (sc->no_tsc) {
#if defined(PR_SET_TSC) && (defined(__x86_64__) || defined(__i386__))
    if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) != 0) return 10;
    if (!rdtsc_faults()) return 11;
#else
    return 10;
#endif
  }
  if (sc->descriptors) {
    struct rlimit r = { 3, 3 };
    int fd;
    for (fd = 3; fd < 1024; ++fd) close(fd);
    if (setrlimit(RLIMIT_NOFILE, &r) != 0) return 10;
  }
  cpucycles_select_why(cpucycles_options, cpucycles_noptions, &ps, trials, whys, root, 0);
  return 0;
}

/* Every why line that blames perf_event_open (or its page): its code and
   the whole line of the first, and how many there are. */
static int perf_lines(const char *out, const char *code, char *first, size_t size)
{
  const char *at;
  int n = 0, all = 1;
  first[0] = 0;
  for (at = strstr(out, "cpucycles why "); at; at = strstr(at + 1, "cpucycles why ")) {
    const char *name = at + 14, *c = strchr(name, ' '), *end = strchr(at, '\n');
    if (!c || !end || strncmp(c + 1, "perf-", 5) != 0) continue;
    if (strncmp(c + 1, code, strlen(code)) != 0 || c[1 + strlen(code)] != ' ') all = 0;
    if (!n++) {
      size_t len = (size_t)(end - at) < size ? (size_t)(end - at) : size - 1;
      memcpy(first, at, len);
      first[len] = 0;
    }
  }
  return all ? n : -n;
}

/* A case: the line of default-perfevent has code and each phrase, and no
   other perf line has another code. */
static void expect(const struct scene *sc, const char *code, const char *p1, const char *p2)
{
  static char out[32768];
  char line[1024], first[1024];
  const char *at;
  int status, n;

  if (sc->paranoid == -100) tree_remove(root);
  else {
    char text[16];
    snprintf(text, sizeof text, "%d\n", sc->paranoid);
    mkdir(root, 0755);
    if (tree_put(root, "/proc/sys/kernel/perf_event_paranoid", text) != 0) {
      CHECK(0, "%s: the fixture could not be written under %s", sc->what, root);
      return;
    }
  }
  status = childout(traced, sc, out, sizeof out, 60);
  if (status == 10) {
    SKIP("%s: the scene cannot be built here (seccomp, capabilities, prctl or rlimits refused)",
         sc->what);
    return;
  }
  CHECK(status == 0 && strstr(out, "cpucycles tracesetup 0 "), "%s: the traced selection ran "
        "(status %d)", sc->what, status);
  childout_line(out, "cpucycles why default-perfevent ", line, sizeof line);
  n = perf_lines(out, code, first, sizeof first);
  at = line + strlen("cpucycles why default-perfevent ");
  CHECK(line[0] && strncmp(at, code, strlen(code)) == 0 && at[strlen(code)] == ' ' &&
            (!p1 || strstr(line, p1)) && (!p2 || strstr(line, p2)),
        "%s: default-perfevent %s%s%s%s%s (%s)", sc->what, code, p1 ? ", saying " : "",
        p1 ? p1 : "", p2 ? "; " : "", p2 ? p2 : "", line);
  CHECK(n > 0, "%s: every counter that blames perf_event_open says %s (%d lines; %s)", sc->what,
        code, n, first);
}

/* Whether perf_event_open, asked here as the library asks, is refused
   before the kernel looks for a descriptor: by permission, or for want of
   perf events. */
static int refused_before_descriptors(void)
{
  int fd = cycles_open(0, 1);
  if (fd >= 0) close(fd);
  return fd < 0 && (errno == EACCES || errno == EPERM || errno == ENOSYS);
}

static int privileged(void)
{
  struct {
    uint32_t version;
    int pid;
  } header = { 0x20080522, 0 };
  uint32_t caps[6];
  if (syscall(SYS_capget, &header, caps) != 0) return 0;
  return (caps[0] >> 21 & 1) || (caps[3] >> 6 & 1);
}

int main(void)
{
  char e[96];
  if (fork_skipped("why lines of refused perf events")) return 0;
  snprintf(root, sizeof root, "/tmp/cpucycles-why-%ld", (long)getpid());

  {
    static const struct scene s = { "seccomp EPERM, paranoid 2", EPERM, 2, 0, 0, 0 };
    snprintf(e, sizeof e, "perf_event_open said EPERM (errno %d)", EPERM);
    expect(&s, "perf-policy", e, "kernel.perf_event_paranoid is 2");
  }
  {
    static const struct scene s = { "seccomp EACCES, paranoid 2, no capabilities", EACCES, 2, 1,
                                    0, 0 };
    snprintf(e, sizeof e, "perf_event_open said EACCES (errno %d)", EACCES);
    expect(&s, "perf-policy", e, "the paranoid value allows it");
  }
  {
    static const struct scene s = { "seccomp EACCES, paranoid 3, no capabilities", EACCES, 3, 1,
                                    0, 0 };
    expect(&s, "perf-paranoid", "kernel.perf_event_paranoid is 3",
           "sysctl kernel.perf_event_paranoid=2");
  }
  if (privileged()) {
    static const struct scene s = { "seccomp EACCES, paranoid 3, CAP_SYS_ADMIN kept", EACCES, 3,
                                    0, 0, 0 };
    expect(&s, "perf-policy", "holding CAP_PERFMON or CAP_SYS_ADMIN", "no paranoid value binds");
  } else {
    SKIP("seccomp EACCES at paranoid 3 with a capability the setting does not bind: not root");
  }
  {
    static const struct scene s = { "seccomp EPERM, paranoid unreadable", EPERM, -100, 0, 0, 0 };
    expect(&s, "perf-refused", "kernel.perf_event_paranoid does not exist", 0);
  }
  {
    static const struct scene s = { "seccomp ENOSYS, paranoid 2", ENOSYS, 2, 0, 0, 0 };
    snprintf(e, sizeof e, "perf_event_open said ENOSYS (errno %d)", ENOSYS);
    expect(&s, "perf-nosys", e, "a filter answered");
  }
  {
    static const struct scene s = { "seccomp ENOSYS, no paranoid file", ENOSYS, -100, 0, 0, 0 };
    expect(&s, "perf-nosys", "a kernel without perf events", 0);
  }
  {
    static const struct scene s = { "seccomp ENOENT", ENOENT, 2, 0, 0, 0 };
    snprintf(e, sizeof e, "perf_event_open said ENOENT (errno %d)", ENOENT);
    expect(&s, "perf-noevent", e, "nothing inside this machine enables it");
  }
  if (refused_before_descriptors()) {
    SKIP("no descriptor left: this kernel refuses perf_event_open here before it looks for one");
  } else {
    static const struct scene s = { "RLIMIT_NOFILE 3", 0, 2, 0, 1, 0 };
    snprintf(e, sizeof e, "perf_event_open said EMFILE (errno %d)", EMFILE);
    expect(&s, "perf-nofd", e, "ulimit -n");
  }
#if (defined(__x86_64__) || defined(__i386__)) && defined(SANITIZED)
  SKIP("RDTSC forbidden: the sanitizer's runtime reads the TSC itself, outside any probe");
#elif defined(__x86_64__) || defined(__i386__)
  {
    static const struct scene s = { "RDTSC forbidden (PR_SET_TSC)", 0, 2, 0, 0, 1 };
    static char out[32768];
    char line[1024], want[96];
    const char *tsc = "x86-tsc";
    int status = childout(traced, &s, out, sizeof out, 60), i;
    char prefix[64];
    for (i = 0; i < cpucycles_noptions; ++i)
      if (strcmp(cpucycles_options[i].name, "amd64-tsc") == 0) tsc = "amd64-tsc";
    snprintf(prefix, sizeof prefix, "cpucycles why %s ", tsc);
    snprintf(want, sizeof want, " fault-sigsegv reading it raised SIGSEGV (signal %d)", SIGSEGV);
    if (status == 10) SKIP("RDTSC forbidden: prctl(PR_SET_TSC) refused here");
    else if (status == 11)
      SKIP("RDTSC forbidden: PR_SET_TSC is taken, but RDTSC still runs here (a hypervisor that "
           "executes it for the guest whatever the guest's kernel asks)");
    else
      CHECK(childout_line(out, prefix, line, sizeof line) && strstr(line, want) &&
                strstr(line, "forbids it"),
            "RDTSC forbidden: %s's read faults, and its line names the signal (%s)", tsc, line);
  }
#endif
  tree_remove(root);
  return check_done();
}
