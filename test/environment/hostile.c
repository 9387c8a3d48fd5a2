/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* hostile.c: the real library's first call where the system refuses or
   lies. perf_event_open and open are denied with each errno a kernel or
   sandbox gives (a seccomp filter, no privilege needed); then, as root, a
   private mount namespace puts empty, garbage, enormous, unterminated,
   NUL-laden, out-of-range, unreadable and special files where the
   cycles-per-second sources live. Each case runs in a fresh child whose
   first call must finish (no crash, no hang), choose a working counter,
   keep no descriptor, and take the estimate from the documented source. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cpucycles.h>
#include "check.h"
#include "forkable.h"
#include "fds.h"

/* The seccomp filters need the kernel's headers: without them those
   cases are skipped (deny.h). */
#include "deny.h"

#define DEFAULT 2399987654LL

/* What a child reports through its pipe. */
struct outcome {
  int ran;                  /* 0: the environment could not be built */
  long long persecond;
  long long decreases, increases;
  int fds_opened, fds_inherited;
  char name[64];
};

/* The first call and what follows it, in the prepared child. */
static void measure(struct outcome *o)
{
  struct fds before, after;
  long long prev, now;
  int i;
  fds_list(&before);
  o->persecond = cpucycles_persecond();
  strncpy(o->name, cpucycles_implementation(), sizeof o->name - 1);
  fds_list(&after);
  o->fds_opened = fds_new(&before, &after, &o->fds_inherited);
  prev = cpucycles();
  for (i = 0; i < 100000; ++i) {
    now = cpucycles();
    o->decreases += now < prev;
    o->increases += now > prev;
    prev = now;
  }
  o->ran = 1;
}

/* Runs prepare() then measure() in a child with a deadline. Returns 1 and
   fills *o if the child reported; 0 if it died or hung. */
static int in_child(int (*prepare)(const void *), const void *arg, struct outcome *o, int *status)
{
  int p[2];
  pid_t pid;
  memset(o, 0, sizeof *o);
  *status = -1;
  if (pipe(p) != 0) return 0;
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    struct outcome mine;
    memset(&mine, 0, sizeof mine);
    close(p[0]);
    alarm(30);
    if (prepare(arg) == 0) measure(&mine);
    if (write(p[1], &mine, sizeof mine) != (ssize_t)sizeof mine) _exit(2);
    _exit(0);
  }
  close(p[1]);
  if (pid > 0 && read(p[0], o, sizeof *o) != (ssize_t)sizeof *o) memset(o, 0, sizeof *o);
  close(p[0]);
  if (pid > 0) waitpid(pid, status, 0);
  return pid > 0 && WIFEXITED(*status) && WEXITSTATUS(*status) == 0;
}

/* One case: 1 with *o filled when it ran; a failure or a skip otherwise. */
static int run_case(const char *what, int (*prepare)(const void *), const void *arg,
                    const char *no_environment, struct outcome *o)
{
  int status;
  if (!in_child(prepare, arg, o, &status)) {
    CHECK(0, "%s: the child died or hung (status %#x)", what, status);
    return 0;
  }
  if (!o->ran) SKIP("%s: %s", what, no_environment);
  return o->ran;
}

/* Whether the counter keeps a perf event of the calling thread open: 1 or 0. */
static int uses_perf(const char *name)
{
  return strstr(name, "perf") != 0;
}

/* ---- seccomp: system calls that fail with a chosen errno ---- */
#ifdef HAVE_SECCOMP_HEADERS

struct denial {
  const char *what;
  long nrs[2];
  int nnrs;
  int err;
};

/* Installs a filter failing the listed system calls with d->err. */
static int deny(const void *arg)
{
  const struct denial *d = arg;
  return deny_calls(d->nrs, d->nnrs, d->err);
}

#define PERF(e) { "perf_event_open fails with " #e, { SYS_perf_event_open }, 1, e }
#ifdef SYS_open
#define OPEN(e) { "open and openat fail with " #e, { SYS_openat, SYS_open }, 2, e }
#else
#define OPEN(e) { "openat fails with " #e, { SYS_openat }, 1, e }
#endif
static const struct denial denials[] = {
  PERF(EPERM), PERF(EACCES), PERF(ENOSYS), PERF(ENOENT), OPEN(EACCES), OPEN(ENOENT), OPEN(EMFILE),
};

static void seccomp_cases(void)
{
  size_t i;
  setenv("cpucyclespersecond", "1234567890", 1);
  for (i = 0; i < sizeof denials / sizeof denials[0]; ++i) {
    const struct denial *d = &denials[i];
    struct outcome o;
    int opens = d->nrs[0] != SYS_perf_event_open;
    if (!run_case(d->what, deny, d, "seccomp filters do not work here (an emulator?)", &o)) continue;
    /* Without open() a perf counter may still work (perf_event_open is
       its own system call); it keeps its thread's event open. */
    CHECK((opens || !uses_perf(o.name)) && strcmp(o.name, "default-zero") != 0 && o.decreases == 0 &&
          o.increases > 0, "%s: a working counter chosen, %s", d->what, o.name);
    CHECK(o.fds_opened == uses_perf(o.name), "%s: no descriptor left open but a perf counter's "
          "event (%d)", d->what, o.fds_opened);
    if (opens)
      CHECK(o.persecond == 1234567890LL, "%s: no file readable, the environment variable applies (%lld)",
            d->what, o.persecond);
    else
      CHECK(o.persecond >= 1000000 && o.persecond <= 100000000000LL, "%s: persecond %lld in range",
            d->what, o.persecond);
  }
  unsetenv("cpucyclespersecond");
}
#else
static void seccomp_cases(void)
{
  SKIP("system calls denied by seccomp filters: this compiler sees no <linux/seccomp.h>");
}
#endif

/* ---- a private mount namespace with planted files ---- */

enum kind { ABSENT, TEXT, SPARSE, RANDOM, FIFO, DIRECTORY, DEVZERO };
struct file {
  enum kind kind;
  const char *text;
  size_t len;   /* TEXT: bytes of text; SPARSE, RANDOM: size of the file */
};
struct scene {
  const char *what;
  struct file etc, base, maxf, cpuinfo;
  const char *env;
  int unreadable; /* everything mode 000, and the child gives up root */
  long long expect;
};

#define T(s) { TEXT, s, sizeof s - 1 }
#define NONE { ABSENT, 0, 0 }
#define MHZ1000 T("processor\t: 0\ncpu MHz\t\t: 1000.000\n")
#define GB (1LL << 30)

static const struct scene scenes[] = {
  { "nothing anywhere: the default", NONE, NONE, NONE, NONE, 0, 0, DEFAULT },
  { "nothing anywhere: the environment", NONE, NONE, NONE, NONE, "1500000000", 0, 1500000000LL },
  { "/etc file beats all", T("3000000000\n"), T("2000000\n"), NONE, MHZ1000, "1500000000", 0, 3000000000LL },
  { "/etc file without final newline", T("3000000000"), NONE, NONE, MHZ1000, 0, 0, 3000000000LL },
  { "/etc file empty: cpuinfo", T(""), NONE, NONE, MHZ1000, 0, 0, 1000000000LL },
  { "/etc file binary garbage: cpuinfo", { RANDOM, 0, 4096 }, NONE, NONE, MHZ1000, 0, 0, 1000000000LL },
  { "/etc file with a NUL byte: cpuinfo", T("2000000000\0\n"), NONE, NONE, MHZ1000, 0, 0, 1000000000LL },
  { "/etc file zero: cpuinfo", T("0\n"), NONE, NONE, MHZ1000, 0, 0, 1000000000LL },
  { "/etc file negative: cpuinfo", T("-3000000000\n"), NONE, NONE, MHZ1000, 0, 0, 1000000000LL },
  { "/etc file above 10^11: cpuinfo", T("100000000001\n"), NONE, NONE, MHZ1000, 0, 0, 1000000000LL },
  { "/etc file beyond 2^64: cpuinfo", T("99999999999999999999999\n"), NONE, NONE, MHZ1000, 0, 0, 1000000000LL },
  { "/etc file 1 GB of NUL bytes: cpuinfo", { SPARSE, 0, GB }, NONE, NONE, MHZ1000, 0, 0, 1000000000LL },
  { "/etc file a FIFO nobody writes: cpuinfo", { FIFO, 0, 0 }, NONE, NONE, MHZ1000, 0, 0, 1000000000LL },
  { "/etc file a directory: cpuinfo", { DIRECTORY, 0, 0 }, NONE, NONE, MHZ1000, 0, 0, 1000000000LL },
  { "/etc file a link to /dev/zero: cpuinfo", { DEVZERO, 0, 0 }, NONE, NONE, MHZ1000, 0, 0, 1000000000LL },
  { "sysfs base_frequency garbage: cpuinfo_max_freq", NONE, T("fast\n"), T("3500000\n"), MHZ1000, 0, 0,
    3500000000LL },
  { "sysfs both out of range: cpuinfo", NONE, T("1\n"), T("200000000\n"), MHZ1000, 0, 0, 1000000000LL },
  { "cpuinfo empty: the environment", NONE, NONE, NONE, T(""), "1700000000", 0, 1700000000LL },
  { "cpuinfo binary garbage: the environment", NONE, NONE, NONE, { RANDOM, 0, 65536 }, "1700000000", 0,
    1700000000LL },
  { "cpuinfo 1 GB of NUL bytes: the default", NONE, NONE, NONE, { SPARSE, 0, GB }, 0, 0, DEFAULT },
  { "cpuinfo without final newline", NONE, NONE, NONE, T("processor\t: 0\ncpu MHz\t\t: 2500.5"), 0, 0,
    2500500000LL },
  { "cpuinfo rate with a NUL byte: the next line", NONE, NONE, NONE,
    T("cpu MHz\t\t: 25\0" "00\ncpu MHz\t\t: 1800\n"), 0, 0, 1800000000LL },
  { "cpuinfo rate zero: the environment", NONE, NONE, NONE, T("cpu MHz\t\t: 0.000\n"), "1700000000", 0,
    1700000000LL },
  { "cpuinfo rate above 10^11: the environment", NONE, NONE, NONE, T("cpu MHz\t\t: 999999999\n"),
    "1700000000", 0, 1700000000LL },
  { "everything unreadable: the environment", T("3000000000\n"), T("3000000\n"), T("3500000\n"), MHZ1000,
    "1700000000", 1, 1700000000LL },
  { "environment garbage too: the default", NONE, NONE, NONE, NONE, "\x01\xff", 0, DEFAULT },
};

static int plant(const char *path, const struct file *f, int unreadable)
{
  char dir[256], *slash;
  int fd, ok = 1;
  snprintf(dir, sizeof dir, "%s", path);
  for (slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
    *slash = 0;
    mkdir(dir, 0755);
    *slash = '/';
  }
  switch (f->kind) {
  case ABSENT: return 0;
  case FIFO: return mkfifo(path, 0644);
  case DIRECTORY: return mkdir(path, 0755);
  case DEVZERO: return symlink("/dev/zero", path);
  default: break;
  }
  fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return -1;
  if (f->kind == TEXT) ok = write(fd, f->text, f->len) == (ssize_t)f->len;
  if (f->kind == SPARSE) ok = ftruncate(fd, (off_t)f->len) == 0;
  if (f->kind == RANDOM) {
    unsigned long long x = 0x9e3779b97f4a7c15ULL;
    char buf[4096];
    size_t done, i;
    for (done = 0; ok && done < f->len; done += sizeof buf) {
      for (i = 0; i < sizeof buf; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        buf[i] = (char)(x >> 56);
      }
      ok = write(fd, buf, sizeof buf) == (ssize_t)sizeof buf;
    }
  }
  if (unreadable) ok &= fchmod(fd, 0) == 0;
  close(fd);
  return ok ? 0 : -1;
}

/* qemu-sparc64 (and qemu for a few other targets) answers an open of
   /proc/cpuinfo with a text of its own, whatever the mount namespace
   holds: then the planted file is not what the library reads, and the
   scene cannot be staged. */
static int sees_planted_cpuinfo(const struct file *f)
{
  char buf[64];
  ssize_t n;
  int fd = open("/proc/cpuinfo", O_RDONLY);
  if (f->kind == ABSENT) {
    if (fd >= 0) close(fd);
    return fd < 0;
  }
  if (f->kind != TEXT) {
    if (fd >= 0) close(fd);
    return 1;
  }
  if (fd < 0) return 0;
  n = read(fd, buf, sizeof buf);
  close(fd);
  if (n < 0) return 0;
  return (size_t)n == (f->len < sizeof buf ? f->len : sizeof buf) && memcmp(buf, f->text, (size_t)n) == 0;
}

static int stage(const void *arg)
{
  const struct scene *s = arg;
  static const char *const mounts[3] = { "/proc", "/sys", "/etc" };
  int i;
  if (unshare(CLONE_NEWNS) != 0) return -1;
  if (mount("none", "/", 0, MS_REC | MS_PRIVATE, 0) != 0) return -1;
  for (i = 0; i < 3; ++i)
    if (mount("none", mounts[i], "tmpfs", 0, "mode=0755") != 0) return -1;
  if (plant("/etc/cpucyclespersecond", &s->etc, s->unreadable) ||
      plant("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency", &s->base, s->unreadable) ||
      plant("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", &s->maxf, s->unreadable) ||
      plant("/proc/cpuinfo", &s->cpuinfo, s->unreadable))
    return -1;
  if (!s->unreadable && !sees_planted_cpuinfo(&s->cpuinfo)) return -1;
  if (s->unreadable && (setgid(65534) != 0 || setuid(65534) != 0)) return -1;
  if (s->env) setenv("cpucyclespersecond", s->env, 1);
  else unsetenv("cpucyclespersecond");
  return 0;
}

static void namespace_cases(void)
{
  size_t i;
  if (geteuid() != 0) {
    SKIP("hostile files in a private mount namespace: %d cases need root",
         (int)(sizeof scenes / sizeof scenes[0]));
    return;
  }
  for (i = 0; i < sizeof scenes / sizeof scenes[0]; ++i) {
    const struct scene *s = &scenes[i];
    struct outcome o;
    if (!run_case(s->what, stage, s, "no private mount namespace here, or an emulator that supplies its own /proc/cpuinfo", &o))
      continue;
    CHECK(o.persecond == s->expect && o.decreases == 0 && o.increases > 0 && o.fds_opened == uses_perf(o.name),
          "%s: persecond %lld (want %lld), %s, %d descriptors kept", s->what, o.persecond, s->expect,
          o.name, o.fds_opened);
  }
}

int main(void)
{
  if (fork_skipped("hostile-environment tests")) return 0;
  seccomp_cases();
  namespace_cases();
  return check_done();
}
