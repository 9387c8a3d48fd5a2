/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* cpucycles-open: as root, make Linux let user programs reach the better
   cycle counters, until the next reboot. Each setting only ever opens
   access further; a file that is missing is a kernel without that knob. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif

static const char *root = "";
static int failed;

static void usage(const char *why)
{
  fprintf(stderr, "cpucycles-open: %s\nusage: cpucycles-open [--root=DIR]\n", why);
  exit(2);
}

/* Only regular files, never through a symlink at the end: under --root the
   tree may not be trusted, and the kernel's own files are regular. */
static int open_setting(const char *name, int flags)
{
  struct stat st;
  int fd = open(name, flags | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return -1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    errno = EINVAL;
    return -1;
  }
  return fd;
}

/* 1 with *value set; 0 when the file does not exist; -1 (reported) when it
   exists but does not hold one integer. */
static int get(const char *name, long *value)
{
  char buf[32], *end;
  ssize_t n;
  int fd = open_setting(name, O_RDONLY);

  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return 0;
    fprintf(stderr, "cpucycles-open: %s: %s\n", name, strerror(errno));
    failed = 1;
    return -1;
  }
  n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n > 0) {
    buf[n] = 0;
    errno = 0;
    *value = strtol(buf, &end, 10);
    if (end != buf && errno == 0 && (*end == 0 || strcmp(end, "\n") == 0)) return 1;
  }
  fprintf(stderr, "cpucycles-open: %s: not a number, left alone\n", name);
  failed = 1;
  return -1;
}

static void put(const char *name, long old, long value)
{
  char buf[32];
  int len = snprintf(buf, sizeof buf, "%ld\n", value);
  int fd = open_setting(name, O_WRONLY | O_TRUNC);

  if (fd < 0 || write(fd, buf, (size_t)len) != len) {
    fprintf(stderr, "cpucycles-open: %s: cannot write %ld: %s\n", name, value, strerror(errno));
    failed = 1;
  } else {
    printf("cpucycles-open: %s: %ld -> %ld\n", name, old, value);
  }
  if (fd >= 0 && close(fd) != 0) {
    fprintf(stderr, "cpucycles-open: %s: %s\n", name, strerror(errno));
    failed = 1;
  }
}

enum rule { AT_MOST, EXACTLY, FROM_ZERO };

/* Sets the file under root to value when the rule says it would open
   access further. */
static void setting(const char *path, enum rule rule, long value)
{
  char name[PATH_MAX];
  long old;

  if (snprintf(name, sizeof name, "%s%s", root, path) >= (int)sizeof name) {
    fprintf(stderr, "cpucycles-open: %s%s: name too long\n", root, path);
    failed = 1;
    return;
  }
  if (get(name, &old) != 1) return;
  if (rule == AT_MOST ? old > value : rule == EXACTLY ? old != value : old == 0)
    put(name, old, value);
}

int main(int argc, char **argv)
{
  int i;

  for (i = 1; i < argc; ++i) {
    if (strncmp(argv[i], "--root=", 7) == 0 && *root == 0) {
      root = argv[i] + 7;
      if (*root == 0) usage("--root needs a directory");
    } else if (strncmp(argv[i], "--root=", 7) == 0) {
      usage("--root given twice");
    } else {
      usage("unknown argument");
    }
  }
  if (geteuid() != 0) {
    fprintf(stderr, "cpucycles-open: only root may change kernel settings "
                    "(running as uid %ld); nothing changed\n", (long)geteuid());
    return 1;
  }

  /* 3 and above forbid user-space perf events of one's own threads. */
  setting("/proc/sys/kernel/perf_event_paranoid", AT_MOST, 2);
  /* 2: every process may use RDPMC, even without a perf event (amd64-pmcff). */
  setting("/sys/devices/cpu/rdpmc", EXACTLY, 2);
  setting("/sys/devices/cpu_core/rdpmc", EXACTLY, 2);
  setting("/sys/devices/cpu_atom/rdpmc", EXACTLY, 2);
  /* arm64 and RISC-V: 1 lets a thread with a perf event read its counter.
     RISC-V's 2 (legacy: rdcycle for everyone) is wider already and stays. */
  setting("/proc/sys/kernel/perf_user_access", FROM_ZERO, 1);
  /* The watchdog's cycle event takes Intel's fixed cycle counter and
     restarts it with every NMI, so RDPMC readings of it jump back. */
  setting("/proc/sys/kernel/nmi_watchdog", EXACTLY, 0);

  if (fflush(stdout) != 0 || ferror(stdout)) {
    perror("cpucycles-open: writing output");
    return 1;
  }
  return failed;
}
