/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* sentfault.c: fault signals that someone sends (pthread_kill, kill)
   while the first call is probing go to the program as if the library
   were not there. The selecting thread is held inside its first setup,
   where the guard is armed, while the signal is sent:
   - SIGILL, SIGFPE, SIGBUS, SIGSEGV sent to that thread with
     pthread_kill reach the program's SA_SIGINFO handler, in that thread,
     with si_code SI_TKILL, and the selection goes on;
   - each sent with kill() while the program blocks it in every thread
     is still blocked and pending after the call, and arrives with its
     sender's siginfo once the program unblocks it. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <cpucycles.h>
#include "check.h"
#include "forkable.h"
#include "held.h"

static const int faults[4] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };
static const char *const names[4] = { "SIGILL", "SIGFPE", "SIGBUS", "SIGSEGV" };

static int sig_under_test;
static pthread_t selector;
static volatile int calls, code, in_selector, from_pid;

static void on_fault(int sig, siginfo_t *info, void *ctx)
{
  (void)ctx;
  if (sig != sig_under_test) return;
  __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
  code = info->si_code;
  from_pid = (int)info->si_pid;
  in_selector = pthread_equal(pthread_self(), selector);
}

static int catch_it(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  return sigaction(sig_under_test, &sa, 0);
}

/* Exit bits: 1 the handler did not run once, 2 not with SI_TKILL in the
   selecting thread, 4 the selection did not end with the counter, 8 the
   selection was never reached, 16 setup trouble. */
static int tkill_case(void)
{
  int bad = 0;
  if (catch_it() != 0) return 16;
  if (pthread_create(&selector, 0, held_first_call, 0) != 0) return 16;
  if (!stall_await(&in_setup, 10)) return 8;
  pthread_kill(selector, sig_under_test);
  /* Delivered before pthread_kill returns when the target runs; on a
     busy machine give it a moment. */
  stall_await(&calls, 1);
  stall_raise(&release_setup);
  pthread_join(selector, 0);
  if (calls != 1) bad |= 1;
  if (code != SI_TKILL || !in_selector) bad |= 2;
  if (strcmp(cpucycles_implementation(), HELD_NAME) != 0) bad |= 4;
  return bad;
}

/* Exit bits: 1 not pending after the call, 2 no longer blocked, 4 the
   handler ran while blocked, 8 not delivered once unblocked, or not with
   the sender's siginfo, 16 setup trouble, 32 the selection was never
   reached. */
static int blocked_case(void)
{
  sigset_t one, pending, mask;
  int bad = 0;
  if (catch_it() != 0) return 16;
  sigemptyset(&one);
  sigaddset(&one, sig_under_test);
  pthread_sigmask(SIG_BLOCK, &one, 0); /* inherited by the selecting thread */
  if (pthread_create(&selector, 0, held_first_call, 0) != 0) return 16;
  if (!stall_await(&in_setup, 10)) return 32;
  kill(getpid(), sig_under_test);
  {
    struct timespec ms = { 0, 1000000 };
    nanosleep(&ms, 0); /* time to be delivered, if it could be */
  }
  stall_raise(&release_setup);
  pthread_join(selector, 0);
  if (calls) bad |= 4;
  sigpending(&pending);
  if (sigismember(&pending, sig_under_test) != 1) bad |= 1;
  pthread_sigmask(SIG_BLOCK, 0, &mask);
  if (sigismember(&mask, sig_under_test) != 1) bad |= 2;
  pthread_sigmask(SIG_UNBLOCK, &one, 0);
  if (calls != 1 || code != SI_USER || from_pid != (int)getpid()) bad |= 8;
  return bad;
}

static void each_fault(int (*scenario)(void), const char *what)
{
  int i;
  for (i = 0; i < 4; ++i) {
    int st;
    sig_under_test = faults[i];
    st = held_child(scenario, 20);
    CHECK(st == 0, "%s %s (status %d)", names[i], what, st);
  }
}

int main(void)
{
  if (fork_skipped("sentfault")) return 0;
  each_fault(tkill_case, "sent with pthread_kill to the thread probing reaches the program's "
             "handler there with SI_TKILL, and the selection goes on");
  if (getenv("CPUCYCLES_TEST_EMULATOR")) {
    SKIP("sentfault: a blocked fault signal sent with kill(): qemu-user keeps blocked signals "
         "in a queue of its own, which the library's sigtimedwait cannot see");
    return check_done();
  }
  each_fault(blocked_case, "sent with kill() during the first call while blocked in every "
             "thread stays blocked and pending, and arrives with its siginfo once unblocked");
  return check_done();
}
