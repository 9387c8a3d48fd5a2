/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* vfork.c: a vfork child shares its parent's memory while the parent's
   other threads run on. One that calls the library while another thread
   of the parent is selecting must neither wait for that thread (it is
   not the child's) nor start a selection of its own in the shared memory,
   which would overwrite the selecting thread's saved state (its signal
   mask, the signal it holds pending) and publish counters set up in the
   child. It reads the OS clock at once instead: a child timing its own
   work before exec must not see a frozen 0. In each of 100 rounds (a
   fresh process), the selecting thread blocks SIGUSR2 and has one
   pending, and is held inside its selection while another thread vforks
   children that each read cpucycles() twice, a few milliseconds apart:
   every child's readings are nonzero and increasing, in nanoseconds
   (default-monotonic, an estimate of 10^9), and the selecting thread
   leaves its first call with its mask and its pending SIGUSR2 as they
   were. Once the results are out, a vfork child gets them. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <cpucycles.h>
#include "check.h"
#include "forkable.h"
#include "held.h"

#define ROUNDS check_reps(100)
#define CHILDREN 3

static sigset_t mask_before, mask_after;
static int pending_after;

/* The selecting thread, with a signal mask of its own (SIGUSR2 blocked)
   and SIGUSR2 pending for it, both of which its first call must leave as
   they were. */
static void *select_held(void *arg)
{
  sigset_t usr2, pending;
  (void)arg;
  sigemptyset(&usr2);
  sigaddset(&usr2, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &usr2, 0);
  pthread_sigmask(SIG_BLOCK, 0, &mask_before);
  pthread_kill(pthread_self(), SIGUSR2);
  hold_here = 1;
  cpucycles();
  pthread_sigmask(SIG_BLOCK, 0, &mask_after);
  pending_after = sigpending(&pending) == 0 && sigismember(&pending, SIGUSR2) == 1;
  return 0;
}

/* Two readings a few milliseconds apart (a coarse OS clock may need
   them), their difference bounded so that a clock that stands still
   shows. */
static void two_readings(long long *a, long long *b)
{
  static const struct timespec ms = { 0, 1000000 };
  int k;
  *a = cpucycles();
  for (k = 0; k < 20; ++k) {
    nanosleep(&ms, 0);
    *b = cpucycles();
    if (*b != *a) return;
  }
}

/* The child's answers mid-selection, as exit bits: 1 a reading of 0 or
   readings that do not increase, 2 another name than default-monotonic
   or another estimate than 10^9. */
static int answers_mid_selection(void)
{
  long long a, b;
  int bits = 0;
  two_readings(&a, &b);
  if (a <= 0 || b <= a) bits |= 1;
  if (strcmp(cpucycles_implementation(), "default-monotonic") != 0 ||
      cpucycles_persecond() != 1000000000LL)
    bits |= 2;
  return bits;
}

/* After the selection, bit 2: another name than the selection's. */
static int answers_after(void)
{
  return strcmp(cpucycles_implementation(), HELD_NAME) != 0 ? 2 : 0;
}

/* The child's exit status (-1 when none), and the seconds it took. */
static double vfork_child(int (*answers)(void), int *status)
{
  double t0 = stall_now();
  pid_t pid = vfork();
  if (pid == 0) _exit(answers());
  *status = -1;
  if (pid > 0) waitpid(pid, status, 0);
  return stall_now() - t0;
}

/* Exit bits: 1 and 2 a child's answers mid-selection
   (answers_mid_selection), 4 one took a second or more, 8 the parent's
   selection ran other than once, 16 the selecting thread's mask changed,
   32 its pending SIGUSR2 is gone, 64 the parent did not end with the
   counter, 128 a vfork child after the selection did not see it; 255
   setup trouble (or every check failed). */
static int mid_selection(void)
{
  pthread_t t;
  int status, bad = 0, k;
  if (pthread_create(&t, 0, select_held, 0) != 0) return 255;
  if (!stall_await(&in_setup, 10)) return 255;
  for (k = 0; k < CHILDREN; ++k) {
    if (vfork_child(answers_mid_selection, &status) >= 1) bad |= 4;
    if (!WIFEXITED(status)) return 255;
    bad |= WEXITSTATUS(status) & 3;
  }
  stall_raise(&release_setup);
  pthread_join(t, 0);
  if (setups != HELD_SETUPS) bad |= 8;
  if (memcmp(&mask_before, &mask_after, sizeof mask_before) != 0) bad |= 16;
  if (!pending_after) bad |= 32;
  if (strcmp(cpucycles_implementation(), HELD_NAME) != 0) bad |= 64;
  vfork_child(answers_after, &status);
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
  int is_fork, r, st, bits = 0, trouble = 0;
  if (fork_skipped("vfork")) return 0;
  is_fork = vfork_is_fork();
  for (r = 0; r < ROUNDS; ++r) {
    st = held_child(mid_selection, 30);
    if (st == 255 || st >= 256) trouble = st;
    else bits |= st;
  }
  CHECK(!trouble, "%d rounds ran: a thread held in its selection, vfork children beside it "
        "(last trouble: status %d)", ROUNDS, trouble);
  CHECK(!(bits & 4), "a vfork child calling during another thread's selection does not wait for "
        "it (bits %#x)", bits);
  if (is_fork)
    SKIP("a vfork child mid-selection reads the OS clock: vfork() is fork() in this C library "
         "(the child ran the fork handlers), so it has memory of its own and selects (bits %#x)",
         bits);
  else
    CHECK(!(bits & 3), "and reads the OS clock: nonzero, increasing, default-monotonic, 10^9 a "
          "second, in every child of %d rounds (bits %#x)", ROUNDS, bits);
  CHECK(!(bits & 8), "and starts no selection in the shared memory (bits %#x)", bits);
  CHECK(!(bits & 16), "the selecting thread leaves its first call with its own signal mask "
        "(bits %#x)", bits);
  CHECK(!(bits & 32), "and with its SIGUSR2 still pending (bits %#x)", bits);
  CHECK(!(bits & 64), "the parent's selection chooses the counter (bits %#x)", bits);
  CHECK(!(bits & 128), "a vfork child after the selection gets its result (bits %#x)", bits);
  return check_done();
}
