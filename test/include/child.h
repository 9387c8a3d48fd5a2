/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* child.h: a test scenario in a fresh child process, with a deadline. */
#ifndef CHILD_H
#define CHILD_H
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs fn in a child that an alarm kills after `seconds` (a hang); its
   exit code, or 256 + the signal that ended it. */
static int held_child(int (*fn)(void), unsigned seconds)
{
  int status = -1;
  pid_t pid;
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    alarm(seconds);
    _exit(fn());
  }
  if (pid > 0) waitpid(pid, &status, 0);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 256 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
#endif
