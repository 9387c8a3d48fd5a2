/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* sysfile.c: see sysfile.h. The library reads its files the same way
   (cpucycles/readfile.c), but keeps its functions to itself; this is
   cpucycles-info's own, for files the library never reads. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sysfile.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* Paths are short and fixed; a root so long that they do not fit is
   treated as an absent file rather than cut. */
static int join(char *name, size_t size, const char *root, const char *path)
{
  int n = snprintf(name, size, "%s%s", root, path);
  return n > 0 && (size_t)n < size;
}

/* Windows' C runtime: no FIFOs or terminals at a path to guard against. */
#ifndef O_NONBLOCK
#define O_NONBLOCK 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif

long sysfile_read(const char *root, const char *path, char buf[SYSFILE_MAX])
{
  char name[4096];
  struct stat st;
  size_t got = 0;
  int fd;

  if (!join(name, sizeof name, root, path)) return -1;
  /* O_NONBLOCK: a FIFO at the path must not hold the open; O_NOCTTY: a
     terminal there must not become ours. */
  do fd = open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) return -1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return -1;
  }
  /* sysfs hands out a whole attribute in one read, but a fixture or
     /proc may come in pieces */
  while (got < SYSFILE_MAX) {
    ssize_t r = read(fd, buf + got, SYSFILE_MAX - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      close(fd);
      return -1;
    }
    if (r == 0) break;
    got += (size_t)r;
  }
  close(fd);
  return (long)got;
}

int sysfile_dir(const char *root, const char *path)
{
  char name[4096];
  struct stat st;
  return join(name, sizeof name, root, path) && stat(name, &st) == 0 && S_ISDIR(st.st_mode);
}
