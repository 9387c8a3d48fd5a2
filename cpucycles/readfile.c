/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* readfile.c: reading the small files behind the cycles-per-second
   estimate (/etc/cpucyclespersecond everywhere, more on some OSes)
   without trusting what sits at their paths (readfile.h, which
   cpucycles-info shares). */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"
#include "readfile.h"

/* macOS's <fcntl.h> hides it under _POSIX_C_SOURCE; only Linux's code
   opens a directory (cpucycles_open_dir), and O_NONBLOCK alone keeps a
   FIFO in its place from blocking. */
#ifndef O_DIRECTORY
#define O_DIRECTORY 0
#endif

/* Only tests give a root, and a short one; a small buffer keeps a first
   call's stack, whose every new page is a page fault, shallow. */
#define NAME_MAX_LEN 512

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
  do fd = openat(dir, name, READFILE_FLAGS);
  while (fd < 0 && errno == EINTR);
  return readfile_regular(fd);
}
#endif

/* root+path opened with flags. open(), not openat(AT_FDCWD, ...):
   test/firstcall/lazy.c counts the library's reads of the estimate by
   defining open(). */
int cpucycles_open_path(const char *root, const char *path, int flags)
{
  char name[NAME_MAX_LEN];
  if (!readfile_join(name, sizeof name, root, path)) return -1;
  return readfile_open(name, flags);
}

int cpucycles_open_regular(const char *root, const char *path)
{
  return readfile_regular(cpucycles_open_path(root, path, READFILE_FLAGS));
}

/* A directory whose files are read: one lookup of its path, and when it
   is missing, none of each file's. O_DIRECTORY refuses anything else
   (Linux before opening it, so a FIFO there cannot block; O_NONBLOCK
   elsewhere). */
int cpucycles_open_dir(const char *root, const char *path)
{
  return cpucycles_open_path(root, path, READFILE_FLAGS | O_DIRECTORY);
}

long cpucycles_read_some(void *fd, char *buf, size_t len)
{
  return readfile_some(*(int *)fd, buf, len);
}

/* A file holding one number, from fd (closed here; -1: none). Anything
   longer than a number with some space around it is not one. */
long long cpucycles_read_number(int fd, long long (*parse)(const char *, size_t))
{
  char buf[64];
  long n;

  if (fd < 0) return 0;
  n = readfile_all(fd, buf, sizeof buf);
  close(fd);
  if (n <= 0 || n == (long)sizeof buf) return 0;
  return parse(buf, (size_t)n);
}

long long cpucycles_small_file(const char *root, const char *path,
                               long long (*parse)(const char *, size_t))
{
  return cpucycles_read_number(cpucycles_open_regular(root, path), parse);
}
