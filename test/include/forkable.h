/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* forkable.h: whether fork() works where the tests run. Under qemu-i386
   7.2 on a kernel without 32-bit support the child of even a trivial fork
   spins forever, so the tests built on fork ask first and report
   themselves skipped rather than hang until test/run's timeout. The
   question costs 10 seconds where the answer is no: test/run names a
   file in CPUCYCLES_FORK_CACHE, which the first program told no creates
   and the later ones of the same run read instead of asking again. */
#ifndef FORKABLE_H
#define FORKABLE_H
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fork_broken_before(void)
{
  const char *cache = getenv("CPUCYCLES_FORK_CACHE");
  return cache && *cache && access(cache, F_OK) == 0;
}

static void fork_broken_now(void)
{
  const char *cache = getenv("CPUCYCLES_FORK_CACHE");
  int fd;
  if (!cache || !*cache) return;
  fd = open(cache, O_WRONLY | O_CREAT, 0644);
  if (fd >= 0) close(fd);
}

static int fork_works(void)
{
  struct timespec pause = { 0, 10000000 };
  int status, i;
  pid_t pid;

  if (fork_broken_before()) return 0;
  fflush(stdout);
  pid = fork();
  if (pid < 0) return 0;
  if (pid == 0) _exit(0);
  for (i = 0; i < 1000; ++i) { /* up to 10 seconds */
    if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    nanosleep(&pause, 0);
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  fork_broken_now();
  return 0;
}

/* 1, with a skip line for what, when fork() does not work here: the
   test's main then returns 0 at once. */
static inline int fork_skipped(const char *what)
{
  if (fork_works()) return 0;
  printf("skip %s: fork() does not work here (a trivial child never exited)\n", what);
  return 1;
}
#endif
