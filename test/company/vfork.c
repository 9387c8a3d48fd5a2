/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* vfork.c: a vfork child shares its parent's memory while the parent's
   other threads run on. One that calls the library while another thread
   of the parent is selecting must neither wait for that thread (it is
   not the child's) nor start a selection of its own in the shared memory,
   which would overwrite the selecting thread's saved state (its signal
   mask) and publish counters set up in the child. It gets the defaults
   at once; once the results are out, a vfork child gets them. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <cpucycles.h>
#include "check.h"
#include "forkable.h"
#include "held.h"

static sigset_t mask_before, mask_after;

/* The selecting thread, with a signal mask of its own (SIGUSR2 blocked),
   which its first call must leave as it was. */
static void *select_held(void *arg)
{
  sigset_t usr2;
  (void)arg;
  sigemptyset(&usr2);
  sigaddset(&usr2, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &usr2, 0);
  pthread_sigmask(SIG_BLOCK, 0, &mask_before);
  hold_here = 1;
  cpucycles();
  pthread_sigmask(SIG_BLOCK, 0, &mask_after);
  return 0;
}

/* The child's answers, as exit bits: 1 a nonzero reading, 2 another
   name than `name`, 4 another estimate than the default (only with
   defaults). */
static int child_answers(const char *name, int defaults)
{
  int bits = 0;
  if (defaults && cpucycles() != 0) bits |= 1;
  if (strcmp(cpucycles_implementation(), name) != 0) bits |= 2;
  if (defaults && cpucycles_persecond() != CPUCYCLES_PERSECOND_DEFAULT) bits |= 4;
  return bits;
}

static double vfork_child(const char *name, int defaults, int *status)
{
  double t0 = stall_now();
  pid_t pid = vfork();
  if (pid == 0) _exit(child_answers(name, defaults));
  *status = -1;
  if (pid > 0) waitpid(pid, status, 0);
  return stall_now() - t0;
}

/* Exit bits: 1..4 the child's answers mid-selection, 8 it took a second
   or more, 16 the parent's selection ran other than once, 32 the
   selecting thread's mask changed, 64 the parent did not end with the
   counter, 128 a vfork child after the selection did not see it; 256
   setup trouble. */
static int mid_selection(void)
{
  pthread_t t;
  int status, bad = 0;
  double took;
  if (pthread_create(&t, 0, select_held, 0) != 0) return 255;
  if (!stall_await(&in_setup, 10)) return 255;
  took = vfork_child("default-zero", 1, &status);
  stall_raise(&release_setup);
  pthread_join(t, 0);
  if (!WIFEXITED(status)) return 255;
  bad |= WEXITSTATUS(status) & 7;
  if (took >= 1) bad |= 8;
  if (setups != HELD_SETUPS) bad |= 16;
  if (memcmp(&mask_before, &mask_after, sizeof mask_before) != 0) bad |= 32;
  if (strcmp(cpucycles_implementation(), HELD_NAME) != 0) bad |= 64;
  vfork_child(HELD_NAME, 0, &status);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) bad |= 128;
  return bad;
}

static volatile int atfork_ran;
static void mark_atfork(void) { atfork_ran = 1; }

/* Whether vfork() is fork() in this C library (glibc's on PA-RISC): its
   child runs the fork handlers and gets memory of its own, so it is a
   fork child, which selects for itself (test/company/fork.c's subject). */
static int vfork_is_fork(void)
{
  int status = -1;
  pid_t pid;
  pthread_atfork(0, 0, mark_atfork);
  pid = vfork();
  if (pid == 0) _exit(atfork_ran ? 1 : 0);
  if (pid > 0) waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 1;
}

int main(void)
{
  int st, is_fork;
  SKIP_UNLESS_FORK_WORKS("vfork");
  is_fork = vfork_is_fork();
  st = held_child(mid_selection, 30);
  CHECK(st < 256 && !(st & 8), "a vfork child calling during another thread's selection does not wait for it (status %d)", st);
  if (is_fork)
    SKIP("a vfork child gets the defaults: vfork() is fork() in this C library (the child ran "
         "the fork handlers), so it has memory of its own and selects (status %d)", st);
  else
    CHECK(st < 256 && !(st & 7), "and gets the defaults: 0, default-zero, the default estimate (status %d)", st);
  CHECK(st < 256 && !(st & 16), "and starts no selection in the shared memory (status %d)", st);
  CHECK(st < 256 && !(st & 32), "the selecting thread leaves its first call with its own signal mask (status %d)", st);
  CHECK(st < 256 && !(st & 64), "the parent's selection chooses the counter (status %d)", st);
  CHECK(st < 256 && !(st & 128), "a vfork child after the selection gets its result (status %d)", st);
  CHECK_DONE();
}
