/* persecond.c: the chain of sources for the cycles-per-second estimate. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* Opens root+path only if it is a regular file: a FIFO or a device planted
   there must not block or feed us forever. The name is joined by hand:
   the first snprintf of a process costs tens of microseconds, a large
   part of a first call. Only tests give a root, and a short one; a small
   buffer keeps a first call's stack, whose every new page is a page
   fault, shallow. */
static int open_regular(const char *root, const char *path)
{
  char name[512];
  struct stat st;
  size_t r = strlen(root), p = strlen(path);
  int fd;

  if (r + p >= sizeof name) return -1;
  memcpy(name, root, r);
  memcpy(name + r, path, p + 1);
  fd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return -1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return -1;
  }
  return fd;
}

/* Reads up to len bytes, riding out short reads; -1 on error. */
static long readall(int fd, char *buf, size_t len)
{
  size_t got = 0;
  while (got < len) {
    ssize_t r = read(fd, buf + got, len - got);
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

/* /proc/cpuinfo, line by line, stopping at the first line with a rate:
   the kernel produces the file as it is read, so the rest is never made.
   Reads of 1 KB ask it for little more than the first processor's lines
   (4 KB made it produce two processors' here). Lines longer than the
   buffer carry no rate and are skipped. */
#define CPUINFO_LIMIT (1L << 20)
static long long cpuinfo(const char *root)
{
  char buf[1024];
  size_t have = 0;
  long total = 0;
  int skipping = 0;
  long long v = 0;
  int fd = open_regular(root, "/proc/cpuinfo");

  if (fd < 0) return 0;
  while (!v && total < CPUINFO_LIMIT) {
    ssize_t r = read(fd, buf + have, sizeof buf - have);
    size_t start = 0, i;
    if (r <= 0) {
      if (have && !skipping) v = cpucycles_parse_cpuinfo_line(buf, have);
      break;
    }
    total += r;
    have += (size_t)r;
    for (i = 0; i < have && !v; ++i) {
      if (buf[i] != '\n') continue;
      if (!skipping) v = cpucycles_parse_cpuinfo_line(buf + start, i - start);
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
  close(fd);
  return v;
}

/* The first source that gives a valid figure wins: the administrator's
   file, then what the OS reports, then the environment, then a default.
   root prefixes every path so tests can point the chain at fixtures. */
long long cpucycles_persecond_estimate(const char *root, const char *env)
{
  long long v = small_file(root, "/etc/cpucyclespersecond", cpucycles_parse_hz);
#ifdef __linux__
  if (!v) v = small_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/base_frequency",
                         cpucycles_parse_khz);
  if (!v) v = small_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
                         cpucycles_parse_khz);
  if (!v) v = cpuinfo(root);
#endif
  if (!v && env) v = cpucycles_parse_hz(env, strlen(env));
  if (!v) v = CPUCYCLES_PERSECOND_DEFAULT;
  return v;
}
