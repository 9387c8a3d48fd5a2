/* persecond.c: the chain of sources for the cycles-per-second estimate. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* Opens root+path only if it is a regular file: a FIFO or a device planted
   there must not block or feed us forever, and a terminal must not become
   our controlling one. The name is joined by hand: the first snprintf of a
   process costs tens of microseconds, a large part of a first call. Only
   tests give a root, and a short one; a small buffer keeps a first call's
   stack, whose every new page is a page fault, shallow. */
static int open_regular(const char *root, const char *path)
{
  char name[512];
  struct stat st;
  size_t r = strlen(root), p = strlen(path);
  int fd;

  if (r + p >= sizeof name) return -1;
  memcpy(name, root, r);
  memcpy(name + r, path, p + 1);
  do fd = open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) return -1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return -1;
  }
  return fd;
}

/* A signal arriving during the first call must not change the answer. */
static long read_some(void *fd, char *buf, size_t len)
{
  ssize_t r;
  do r = read(*(int *)fd, buf, len);
  while (r < 0 && errno == EINTR);
  return (long)r;
}

/* Reads up to len bytes, riding out short reads; -1 on error. */
static long readall(int fd, char *buf, size_t len)
{
  size_t got = 0;
  while (got < len) {
    long r = read_some(&fd, buf + got, len - got);
    if (r < 0) return -1;
    if (r == 0) break;
    got += (size_t)r;
  }
  return (long)got;
}

/* A file holding one number. Anything longer than a number with some
   space around it is not one. */
static long long small_file(const char *root, const char *path,
                            long long (*parse)(const char *, size_t))
{
  char buf[64];
  int fd = open_regular(root, path);
  long n;

  if (fd < 0) return 0;
  n = readall(fd, buf, sizeof buf);
  close(fd);
  if (n <= 0 || n == (long)sizeof buf) return 0;
  return parse(buf, (size_t)n);
}

/* /proc/cpuinfo, line by line as get() hands out pieces of any size,
   stopping at the first line where `line` finds a value: the kernel
   produces the file as it is read, so the rest is never made. Lines longer
   than the buffer carry no rate and are skipped; after CPUINFO_LIMIT bytes
   we give up. Reads of at most 1 KB ask the kernel for little more than
   the first processor's lines (4 KB made it produce two processors' on a
   2-core VM). */
#define CPUINFO_LIMIT (1L << 20)
#define CPUINFO_PIECE 1024
long long cpucycles_cpuinfo_stream(long (*get)(void *, char *, size_t), void *ctx,
                                   long long (*line)(const char *, size_t))
{
  char buf[CPUCYCLES_CPUINFO_LINE];
  size_t have = 0;
  long total = 0;
  int skipping = 0;
  long long v = 0;

  while (!v && total < CPUINFO_LIMIT) {
    size_t room = sizeof buf - have;
    long r = get(ctx, buf + have, room < CPUINFO_PIECE ? room : CPUINFO_PIECE);
    size_t start = 0, i;
    if (r <= 0) {
      /* A last line without newline counts at the end of the file, not
         when an error cut it short. */
      if (r == 0 && have && !skipping) v = line(buf, have);
      break;
    }
    if ((size_t)r > (room < CPUINFO_PIECE ? room : CPUINFO_PIECE)) break; /* a broken source */
    total += r;
    /* What was kept from before holds no newline: scan only the new bytes,
       so a source giving tiny pieces costs linear time, not quadratic. */
    i = have;
    have += (size_t)r;
    for (; i < have && !v; ++i) {
      if (buf[i] != '\n') continue;
      if (!skipping) v = line(buf + start, i - start);
      skipping = 0;
      start = i + 1;
    }
    if (start < have) {
      if (start == 0 && have == sizeof buf) {
        skipping = 1;
        have = 0;
      } else {
        memmove(buf, buf + start, have - start);
        have -= start;
      }
    } else {
      have = 0;
    }
  }
  return v;
}

long long cpucycles_cpuinfo_scan(const char *root, long long (*line)(const char *, size_t))
{
  long long v;
  int fd = open_regular(root, "/proc/cpuinfo");
  if (fd < 0) return 0;
  v = cpucycles_cpuinfo_stream(read_some, &fd, line);
  close(fd);
  return v;
}

/* The first source that gives a valid figure wins: the administrator's
   file, then the TSC rate CPUID states (exact where it exists, and cheaper
   than any file), then what the OS reports, then the environment, then a default.
   root prefixes every path so tests can point the chain at fixtures. */
long long cpucycles_persecond_estimate(const char *root, const char *env)
{
  long long v = small_file(root, "/etc/cpucyclespersecond", cpucycles_parse_hz);
  /* CPUID describes this machine, not a tree under root. */
  if (!v && !*root) v = cpucycles_tscrate();
#ifdef __linux__
  if (!v) v = small_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/base_frequency",
                         cpucycles_parse_khz);
  if (!v) v = small_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
                         cpucycles_parse_khz);
  if (!v) v = cpucycles_cpuinfo_scan(root, cpucycles_parse_cpuinfo_line);
#endif
  if (!v && env) v = cpucycles_parse_hz(env, strlen(env));
  if (!v) v = CPUCYCLES_PERSECOND_DEFAULT;
  return v;
}
