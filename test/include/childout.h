/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* childout.h: what a function prints on standard output (a traced
   selection's lines), run in a fresh child with a deadline. */
#ifndef CHILDOUT_H
#define CHILDOUT_H
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs fn(arg) in a child whose standard output is a pipe read into out
   (size bytes, NUL-terminated; what does not fit is read and dropped);
   an alarm kills the child after `seconds`. Returns the child's exit
   status, 256 + the signal that ended it, or -1 when it could not run. */
static int childout(int (*fn)(const void *), const void *arg, char *out, size_t size,
                   unsigned seconds)
{
  int p[2], status = -1;
  size_t got = 0;
  pid_t pid;

  out[0] = 0;
  if (pipe(p) != 0) return -1;
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    int code;
    close(p[0]);
    if (dup2(p[1], 1) < 0) _exit(127);
    close(p[1]);
    alarm(seconds);
    code = fn(arg);
    fflush(stdout);
    _exit(code);
  }
  close(p[1]);
  if (pid > 0)
    for (;;) {
      char drop[256];
      ssize_t n = got + 1 < size ? read(p[0], out + got, size - 1 - got) : read(p[0], drop, sizeof drop);
      if (n <= 0) break;
      if (got + 1 < size) got += (size_t)n;
    }
  out[got] = 0;
  close(p[0]);
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 256 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* The line of out that starts with prefix, copied to line (size bytes,
   without its newline); 0 when there is none. */
static int childout_line(const char *out, const char *prefix, char *line, size_t size)
{
  const char *at = out;
  size_t n = strlen(prefix);
  while (at && *at) {
    const char *end = strchr(at, '\n');
    size_t len = end ? (size_t)(end - at) : strlen(at);
    if (len >= n && strncmp(at, prefix, n) == 0) {
      if (len >= size) len = size - 1;
      memcpy(line, at, len);
      line[len] = 0;
      return 1;
    }
    at = end ? end + 1 : 0;
  }
  line[0] = 0;
  return 0;
}
#endif
