/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* forkable.h: whether fork() works where the tests run. Under qemu-i386
   7.2 on a kernel without 32-bit support the child of even a trivial fork
   spins forever, so the tests built on fork ask first and report
   themselves skipped rather than hang until test/run's timeout. */
#ifndef FORKABLE_H
#define FORKABLE_H
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fork_works(void)
{
  struct timespec pause = { 0, 10000000 };
  int status, i;
  pid_t pid;

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
  return 0;
}

#define SKIP_UNLESS_FORK_WORKS(what)                                                   \
  do {                                                                                 \
    if (!fork_works()) {                                                               \
      printf("skip %s: fork() does not work here (a trivial child never exited)\n", what); \
      return 0;                                                                        \
    }                                                                                  \
  } while (0)
#endif
