/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* child.c: fork, exec, capture, and never wait forever. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "child.h"
#include "stats.h"

/* Milliseconds left before deadline (nanoseconds of bench_ns), at least 0. */
static int left_ms(long long deadline)
{
  long long left = (deadline - bench_ns()) / 1000000;
  return left < 0 ? 0 : left > 1000000 ? 1000000 : (int)left;
}

static void collect(int fd, char *out, size_t len, long long deadline)
{
  size_t got = 0;
  while (got < len - 1) {
    struct pollfd p;
    ssize_t r;
    int ready;
    p.fd = fd;
    p.events = POLLIN;
    ready = poll(&p, 1, left_ms(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    r = read(fd, out + got, len - 1 - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
  }
  out[got] = 0;
}

/* The child's exit status, or -1 when it is still running at the deadline
   (then it is killed) or cannot be waited for. */
static int reap(pid_t pid, long long deadline)
{
  struct timespec pause = { 0, 1000000 };
  int status;

  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) return status;
    if (w < 0 && errno != EINTR) return -1;
    if (left_ms(deadline) == 0) {
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
      return -1;
    }
    nanosleep(&pause, 0);
  }
}

int bench_child(char **argv, char *out, size_t len, int seconds)
{
  long long deadline = bench_ns() + seconds * 1000000000LL;
  int fd[2], status;
  pid_t pid;

  if (len == 0 || pipe(fd) != 0) return -1;
  pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    return -1;
  }
  if (pid == 0) {
    close(fd[0]);
    if (dup2(fd[1], 1) < 0) _exit(127);
    close(fd[1]);
    execvp(argv[0], argv);
    _exit(127);
  }
  close(fd[1]);
  collect(fd[0], out, len, deadline);
  close(fd[0]);
  status = reap(pid, deadline);
  return status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
