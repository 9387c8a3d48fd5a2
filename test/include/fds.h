/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* fds.h: which descriptors are open, found with fcntl rather than
   /proc/self/fd so it works where /proc is missing. */
#ifndef FDS_H
#define FDS_H
#include <fcntl.h>

#define FDS_MAX 1024
struct fds {
  signed char flags[FDS_MAX]; /* -1: closed, else FD_CLOEXEC set or not */
};

static void fds_list(struct fds *s)
{
  int fd;
  for (fd = 0; fd < FDS_MAX; ++fd) {
    int f = fcntl(fd, F_GETFD);
    s->flags[fd] = f < 0 ? -1 : (f & FD_CLOEXEC) != 0;
  }
}

/* How many descriptors `after` has that `before` had not; *inherited gets
   how many of those an exec'd program would inherit. */
static int fds_new(const struct fds *before, const struct fds *after, int *inherited)
{
  int fd, n = 0;
  *inherited = 0;
  for (fd = 0; fd < FDS_MAX; ++fd)
    if (before->flags[fd] < 0 && after->flags[fd] >= 0) {
      ++n;
      *inherited += after->flags[fd] == 0;
    }
  return n;
}
#endif
