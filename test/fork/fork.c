/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* fork.c: descriptors across the first call, and a child's readings after
   its parent selected. The descriptors are compared before and after the
   first call with fcntl (no /proc needed): none is kept but a perf_event
   counter's, and that one is close-on-exec. A child forked after the
   selection reads the parent's counter 10^6 times, starting at or above
   the parent's last reading and never going back. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cpucycles.h>
#include "check.h"
#include "forkable.h"
#include "fds.h"

int main(void)
{
  struct fds before, after;
  long long parent_last, i;
  const char *name;
  int status = -1, opened, inherited;
  pid_t pid;

  if (fork_skipped("fork tests")) return 0;

  fds_list(&before);
  name = cpucycles_implementation();
  fds_list(&after);
  opened = fds_new(&before, &after, &inherited);
  /* Only a counter read through a perf_event descriptor keeps one. */
  CHECK(opened == (strstr(name, "perf") || strstr(name, "pmc")),
        "the first call keeps a descriptor only for a perf_event counter (%d, with %s)", opened, name);
  CHECK(inherited == 0, "every descriptor it keeps is close-on-exec (%d are not)", inherited);

  for (i = 0; i < 1000; ++i) cpucycles();
  parent_last = cpucycles();
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    /* Exit bits: 1 below the parent's last reading, 2 a decrease, 4 another counter. */
    long long prev = cpucycles(), now;
    int bad = prev < parent_last;
    for (i = 0; i < 1000000; ++i) {
      now = cpucycles();
      if (now < prev) bad |= 2;
      prev = now;
    }
    if (strcmp(cpucycles_implementation(), name) != 0) bad |= 4;
    _exit(bad);
  }
  if (pid > 0) waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status), "a forked child's 10^6 calls run to the end (status %#x)", status);
  CHECK(WIFEXITED(status) && !(WEXITSTATUS(status) & 1), "they start at or above the parent's last reading");
  CHECK(WIFEXITED(status) && !(WEXITSTATUS(status) & 2), "and never decrease");
  CHECK(WIFEXITED(status) && !(WEXITSTATUS(status) & 4), "with the parent's counter, %s", name);
  return check_done();
}
