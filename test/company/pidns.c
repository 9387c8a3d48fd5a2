/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* pidns.c: the claim on the selection names a thread, not a process id.
   A process that is pid 1 in its pid namespace (a container's init) has
   a thread selecting when it forks a child that is pid 1 in a nested
   namespace: the same process id, but not the same process. The child
   must make its own first call at once rather than wait for a selection
   that will never finish in it. Needs CAP_SYS_ADMIN for the namespaces;
   skipped without. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <cpucycles.h>
#include "check.h"
#include "forkable.h"
#include "held.h"

#define NO_NAMESPACE 200

/* The exit code of pid, or 256 + the signal that ended it; killed after
   `seconds` (an alarm does not end a namespace's init). */
static int wait_deadline(pid_t pid, double seconds)
{
  double deadline = stall_now() + seconds;
  struct timespec ms = { 0, 1000000 };
  int status;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (stall_now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    nanosleep(&ms, 0);
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 256 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* pid 1 of a nested namespace, forked while its parent's thread selects. */
static int inner_init(void)
{
  if (getpid() != 1) return 3;
  return strcmp(cpucycles_implementation(), HELD_NAME) == 0 ? 0 : 4;
}

/* pid 1 of the first namespace. Exit: 0 fine, 1 the inner child hung,
   2 the parent's selection did not end well, 3..4 from inner_init, 5
   setup trouble. */
static int outer_init(void)
{
  pthread_t t;
  pid_t pid;
  int st, bad = 0;
  if (getpid() != 1) return 5;
  if (pthread_create(&t, 0, held_first_call, 0) != 0) return 5;
  if (!stall_await(&in_setup, 10)) return 5;
  if (unshare(CLONE_NEWPID) != 0) return 5;
  fflush(stdout);
  pid = fork();
  if (pid == 0) _exit(inner_init());
  if (pid < 0) return 5;
  st = wait_deadline(pid, 5);
  if (st >= 256) bad = 1;
  else if (st) bad = st;
  stall_raise(&release_setup);
  pthread_join(t, 0);
  if (!bad && (strcmp(cpucycles_implementation(), HELD_NAME) != 0 || setups != HELD_SETUPS)) bad = 2;
  return bad;
}

static int outside(void)
{
  pid_t pid;
  if (unshare(CLONE_NEWPID) != 0) return NO_NAMESPACE;
  fflush(stdout);
  pid = fork();
  if (pid == 0) _exit(outer_init());
  if (pid < 0) return NO_NAMESPACE;
  return wait_deadline(pid, 20);
}

int main(void)
{
  int st;
  if (getenv("CPUCYCLES_TEST_EMULATOR")) {
    SKIP("pidns: pid namespaces under qemu-user are the host's, not the emulated program's");
    return 0;
  }
  if (fork_skipped("pidns")) return 0;
  st = held_child(outside, 40);
  if (st == NO_NAMESPACE) {
    SKIP("pidns: unshare(CLONE_NEWPID) refused (%s): needs root or CAP_SYS_ADMIN",
         geteuid() ? "not root" : "root, but the kernel or a sandbox refuses");
    return 0;
  }
  CHECK(st != 1, "pid 1 of a nested namespace, forked while pid 1 of its parent's namespace selects, "
        "does not wait for its parent's thread (status %d)", st);
  CHECK(st == 0, "both pid 1s end their first calls with the counter (status %d)", st);
  return check_done();
}
