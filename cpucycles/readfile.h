/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * readfile.h: opening and reading a small file without trusting what sits
 * at its path, written once for the library (readfile.c) and for
 * cpucycles-info (command/sysfile.c). The program cannot call the
 * library's own functions: libcpucycles.a makes them local, so each
 * compiles these, static (not inline: a first call's code is compiled for
 * size, and the compiler inlines what it finds smaller), and each gets
 * the ones it calls.
 */
#ifndef CPUCYCLES_READFILE_H
#define CPUCYCLES_READFILE_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Windows (the C runtime's open): its own flag keeps the descriptor
   from child processes, O_BINARY keeps the runtime from translating line
   ends, and a path holds no FIFO or terminal to block on or adopt. */
#ifdef _WIN32
#define O_CLOEXEC (O_NOINHERIT | O_BINARY)
#define O_NONBLOCK 0
#define O_NOCTTY 0
#endif
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* A FIFO or a device planted at a path must not block or feed us forever,
   and a terminal must not become our controlling one: O_NONBLOCK and
   O_NOCTTY see to the open, readfile_regular to the rest. */
#define READFILE_FLAGS (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

/* root+path in name, of size bytes, joined by hand: the first snprintf of
   a process costs tens of microseconds, a large part of a first call. 0
   when they do not fit: a path cut short is treated as absent. */
static __attribute__((unused)) int readfile_join(char *name, size_t size, const char *root, const char *path)
{
  size_t r = strlen(root), p = strlen(path);
  if (r + p >= size) return 0;
  memcpy(name, root, r);
  memcpy(name + r, path, p + 1);
  return 1;
}

/* name opened with flags, riding out EINTR. The mode argument, unused
   without O_CREAT, keeps it open() under _FORTIFY_SOURCE, which turns a
   two-argument open() with flags it cannot see at compile time into
   glibc's __open_2. */
static __attribute__((unused)) int readfile_open(const char *name, int flags)
{
  int fd;
  do fd = open(name, flags, 0);
  while (fd < 0 && errno == EINTR);
  return fd;
}

/* fd if it is a regular file, else closed (-1). */
static __attribute__((unused)) int readfile_regular(int fd)
{
  struct stat st;
  if (fd < 0) return -1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return -1;
  }
  return fd;
}

/* read() riding out EINTR: a signal arriving meanwhile must not change
   the answer. Never inlined: the library calls it from two places
   (readfile_all, cpucycles_read_some), where one body is the smaller. */
static __attribute__((unused, noinline)) long readfile_some(int fd, char *buf, size_t len)
{
#ifdef _WIN32
  /* The C runtime's read counts in unsigned int; the files are small. */
  int r;
  do r = read(fd, buf, len > 4096 ? 4096 : (unsigned)len);
#else
  ssize_t r;
  do r = read(fd, buf, len);
#endif
  while (r < 0 && errno == EINTR);
  return (long)r;
}

/* Up to len bytes, riding out short reads (a fixture or /proc may come
   in pieces); -1 on error. */
static __attribute__((unused)) long readfile_all(int fd, char *buf, size_t len)
{
  size_t got = 0;
  while (got < len) {
    long r = readfile_some(fd, buf + got, len - got);
    if (r < 0) return -1;
    if (r == 0) break;
    got += (size_t)r;
  }
  return (long)got;
}

/* Up to len bytes of name when it is a regular file: their count, or -1
   (errno says why) when it does not open as one or cannot be read. */
static __attribute__((unused)) long readfile_read(const char *name, char *buf, size_t len)
{
  int fd = readfile_regular(readfile_open(name, READFILE_FLAGS));
  long n;
  if (fd < 0) return -1;
  n = readfile_all(fd, buf, len);
  close(fd);
  return n;
}

#endif
