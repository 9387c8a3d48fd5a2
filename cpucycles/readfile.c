/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* readfile.c: reading the small files behind the cycles-per-second
   estimate (/etc/cpucyclespersecond everywhere, more on some OSes)
   without trusting what sits at their paths. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

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
/* macOS's <fcntl.h> hides it under _POSIX_C_SOURCE; only Linux's code
   opens a directory (cpucycles_open_dir), and O_NONBLOCK alone keeps a
   FIFO in its place from blocking. */
#ifndef O_DIRECTORY
#define O_DIRECTORY 0
#endif

/* root+path in name, joined by hand: the first snprintf of a process
   costs tens of microseconds, a large part of a first call. Only tests
   give a root, and a short one; a small buffer keeps a first call's stack,
   whose every new page is a page fault, shallow. */
#define NAME_MAX_LEN 512
static int join(char *name, const char *root, const char *path)
{
  size_t r = strlen(root), p = strlen(path);
  if (r + p >= NAME_MAX_LEN) return 0;
  memcpy(name, root, r);
  memcpy(name + r, path, p + 1);
  return 1;
}

/* fd if it is a regular file, else closed: a FIFO or a device planted at
   a path must not block or feed us forever, and a terminal must not
   become our controlling one (O_NONBLOCK and O_NOCTTY see to the open). */
#define FLAGS (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
static int only_regular(int fd)
{
  struct stat st;
  if (fd < 0) return -1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return -1;
  }
  return fd;
}

#ifdef _WIN32
/* No openat in Windows' C runtime; only Linux's layer opens files in a
   directory (os-linux.c). */
int cpucycles_open_regular_at(int dir, const char *name)
{
  (void)dir;
  (void)name;
  return -1;
}
#else
int cpucycles_open_regular_at(int dir, const char *name)
{
  int fd;
  do fd = openat(dir, name, FLAGS);
  while (fd < 0 && errno == EINTR);
  return only_regular(fd);
}
#endif

/* root+path opened with flags. open(), not openat(AT_FDCWD, ...):
   test/firstcall/lazy.c counts the library's reads of the estimate by
   defining open(). The mode argument, unused without O_CREAT, keeps it
   open() under _FORTIFY_SOURCE, which turns a two-argument open() with
   flags it cannot see at compile time into glibc's __open_2. */
int cpucycles_open_path(const char *root, const char *path, int flags)
{
  char name[NAME_MAX_LEN];
  int fd;

  if (!join(name, root, path)) return -1;
  do fd = open(name, flags, 0);
  while (fd < 0 && errno == EINTR);
  return fd;
}

int cpucycles_open_regular(const char *root, const char *path)
{
  return only_regular(cpucycles_open_path(root, path, FLAGS));
}

/* A directory whose files are read: one lookup of its path, and when it
   is missing, none of each file's. O_DIRECTORY refuses anything else
   (Linux before opening it, so a FIFO there cannot block; O_NONBLOCK
   elsewhere). */
int cpucycles_open_dir(const char *root, const char *path)
{
  return cpucycles_open_path(root, path, FLAGS | O_DIRECTORY);
}

/* A signal arriving during the first call must not change the answer. */
long cpucycles_read_some(void *fd, char *buf, size_t len)
{
#ifdef _WIN32
  /* The C runtime's read counts in unsigned int; the files are small. */
  int r;
  do r = read(*(int *)fd, buf, len > 4096 ? 4096 : (unsigned)len);
#else
  ssize_t r;
  do r = read(*(int *)fd, buf, len);
#endif
  while (r < 0 && errno == EINTR);
  return (long)r;
}

/* Reads up to len bytes, riding out short reads; -1 on error. */
static long readall(int fd, char *buf, size_t len)
{
  size_t got = 0;
  while (got < len) {
    long r = cpucycles_read_some(&fd, buf + got, len - got);
    if (r < 0) return -1;
    if (r == 0) break;
    got += (size_t)r;
  }
  return (long)got;
}

/* A file holding one number, from fd (closed here; -1: none). Anything
   longer than a number with some space around it is not one. */
long long cpucycles_read_number(int fd, long long (*parse)(const char *, size_t))
{
  char buf[64];
  long n;

  if (fd < 0) return 0;
  n = readall(fd, buf, sizeof buf);
  close(fd);
  if (n <= 0 || n == (long)sizeof buf) return 0;
  return parse(buf, (size_t)n);
}

long long cpucycles_small_file(const char *root, const char *path,
                               long long (*parse)(const char *, size_t))
{
  return cpucycles_read_number(cpucycles_open_regular(root, path), parse);
}
