/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* settling.c: a fault signal sent to the selecting thread in the instant
   after the library's sigaction put its guard's handler in place and
   before the library stored what that handler replaced. The library
   calls sigaction through the program (the executable comes first in
   symbol lookup), so this file's sigaction stands in front of libc's:
   right after the real call installs a handler that is not this
   program's, it sends that same signal to the calling thread, which
   takes it before the call returns to the library. For each of SIGILL,
   SIGFPE, SIGBUS and SIGSEGV, in a child of its own, the program's
   handler must then run exactly once, in the selecting thread, with the
   siginfo of the send (SI_TKILL, from this process), the selection must
   end, and the program's handler must be the one in place afterwards.
   A library that passed the signal on to a disposition it had not yet
   learnt would give it to the default action, which kills the child. */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cpucycles.h>
#include "check.h"
#include "child.h"
#include "forkable.h"
#include "interpose.h"

static const int faults[4] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };
static const char *const names[4] = { "SIGILL", "SIGFPE", "SIGBUS", "SIGSEGV" };

static int sig_under_test;
static volatile int send_armed, sends, calls, code, from_pid, in_sender;
static volatile long sender_tid;

static void program_handler(int sig, siginfo_t *info, void *ctx)
{
  (void)ctx;
  if (sig != sig_under_test) return;
  ++calls;
  code = info->si_code;
  from_pid = (int)info->si_pid;
  in_sender = syscall(SYS_gettid) == sender_tid;
}

#ifndef NO_INTERPOSING
__attribute__((visibility("default"))) int sigaction(int sig, const struct sigaction *act,
                                                  struct sigaction *old)
{
  int r = real_sigaction(sig, act, old);
  if (r == 0 && send_armed && sig == sig_under_test && act && (act->sa_flags & SA_SIGINFO) &&
      act->sa_sigaction != program_handler) {
    send_armed = 0;
    ++sends;
    sender_tid = syscall(SYS_gettid);
    syscall(SYS_tgkill, (long)getpid(), sender_tid, (long)sig);
  }
  return r;
}
#endif

/* Exit bits: 1 the handler did not run exactly once, 2 not in the
   selecting thread with the send's siginfo, 4 no send happened (the
   library never installed a handler for the signal), 8 the program's
   handler is not in place afterwards, 16 setup trouble, 32 the
   selection did not end with a counter. */
static int one_signal(void)
{
  struct sigaction sa, now;
  int bad = 0;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = program_handler;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  if (sigaction(sig_under_test, &sa, 0) != 0) return 16;
  send_armed = 1;
  cpucycles();
  send_armed = 0;
  if (calls != 1) bad |= 1;
  if (calls >= 1 && (code != SI_TKILL || from_pid != (int)getpid() || !in_sender)) bad |= 2;
  if (sends != 1) bad |= 4;
  if (sigaction(sig_under_test, 0, &now) != 0 || !(now.sa_flags & SA_SIGINFO) ||
      now.sa_sigaction != program_handler)
    bad |= 8;
  if (strcmp(cpucycles_implementation(), "default-zero") == 0) bad |= 32;
  return bad;
}

int main(void)
{
  const char *why_not = interpose_why_not();
  int i;
  if (why_not) {
    SKIP("a signal sent between the guard's sigaction and its answer: %s", why_not);
    return 0;
  }
  if (fork_skipped("a signal sent between the guard's sigaction and its answer")) return 0;
  for (i = 0; i < 4; ++i) {
    int r;
    sig_under_test = faults[i];
    r = held_child(one_signal, 60);
    CHECK(r == 0,
          "%s sent to the selecting thread just as the guard's handler is installed reaches the "
          "program's handler once, with its siginfo, and the program's handler is in place after "
          "(exit %d)",
          names[i], r);
  }
  return check_done();
}
