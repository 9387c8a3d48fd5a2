/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* guard.c: while the selection probes a counter, a fault in another thread
   reaches the handler the program installed (or kills it as the default
   would), and afterwards every disposition and the mask are as found. The
   probe is held inside its guarded setup while a second thread faults.
   The program's handler must get the fault with its siginfo, its sa_mask
   and on its alternate stack; under SIG_DFL the process dies by SIGSEGV,
   under SIG_IGN a sent signal is dropped while a real fault still kills,
   and an SA_RESETHAND handler leaves SIG_DFL behind. Last, a probe's
   fault on the selecting thread's SS_AUTODISARM alternate stack leaves
   that stack armed (skipped where sigaltstack refuses the flag). */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "forkable.h"
#include "internal.h"
#include "sigcmp.h"
#include "probe.h"
#include "stall.h"

#define PERSECOND 2400000000LL

static volatile int *page;


/* What the program's own handlers saw. */
static sigjmp_buf recover;
static pthread_t faulter;
static char altstack[65536];
static volatile int segv_calls, segv_in_faulter, segv_addr_ok, segv_code,
  segv_blocked_self, segv_blocked_extra, segv_on_altstack, ill_calls, ill_in_faulter;

static void on_segv(int sig, siginfo_t *info, void *ctx)
{
  sigset_t now;
  /* the frame, not a local's address: a sanitizer may move locals to the heap */
  char *frame = __builtin_frame_address(0);
  (void)ctx;
  ++segv_calls;
  segv_in_faulter = pthread_equal(pthread_self(), faulter);
  segv_addr_ok = info->si_addr == (void *)page;
  segv_code = info->si_code;
  pthread_sigmask(SIG_BLOCK, 0, &now);
  segv_blocked_self = sigismember(&now, sig);
  segv_blocked_extra = sigismember(&now, SIGUSR2);
  segv_on_altstack = frame >= altstack && frame < altstack + sizeof altstack;
  siglongjmp(recover, 1);
}

/* The si_code this system gives a fault on the page without the library
   in the way: the kernel says SEGV_ACCERR, qemu-ppc says SEGV_MAPERR. What
   must hold is that the program's handler sees what it would have seen. */
static sigjmp_buf reference_jump;
static volatile int reference_code_seen;
static void on_reference(int sig, siginfo_t *info, void *ctx)
{
  (void)sig;
  (void)ctx;
  reference_code_seen = info->si_code;
  siglongjmp(reference_jump, 1);
}

static int reference_code(void)
{
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_reference;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &old);
  reference_code_seen = -1;
  if (!sigsetjmp(reference_jump, 1)) (void)*page;
  sigaction(SIGSEGV, &old, 0);
  return reference_code_seen;
}

static void on_ill(int sig)
{
  (void)sig;
  ++ill_calls;
  ill_in_faulter = pthread_equal(pthread_self(), faulter);
}

/* The other thread: waits for the probe, checks the guard is really up
   (else the test would prove nothing), then faults for real and raises
   SIGILL at itself. */
static volatile int guard_was_up;
static volatile int how; /* 0: real fault; 1: SIGSEGV sent to itself */
static void *fault_in_probe(void *arg)
{
  struct sigaction now;
  stack_t ss, old;
  (void)arg;
  ss.ss_sp = altstack;
  ss.ss_size = sizeof altstack;
  ss.ss_flags = 0;
  sigaltstack(&ss, &old);
  if (stall_await(&probe_in, 10)) {
    sigaction(SIGSEGV, 0, &now);
    guard_was_up = now.sa_sigaction != on_segv;
    if (!sigsetjmp(recover, 1)) {
      if (how == 0) *page = 1;
      else pthread_kill(pthread_self(), SIGSEGV);
    }
    pthread_kill(pthread_self(), SIGILL);
  }
  sigaltstack(&old, 0); /* a sanitizer's runtime may own the one we replaced */
  stall_raise(&probe_done);
  return 0;
}

static const int faults[4] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };

/* Runs the held selection with a faulting thread; 1 if the held counter
   was chosen. */
static int select_with_faulter(void)
{
  struct cpucycles_trial t[1];
  int best;
  probe_in = probe_done = guard_was_up = 0;
  pthread_create(&faulter, 0, fault_in_probe, 0);
  best = cpucycles_select(probe_table, 1, PERSECOND, 0, t);
  pthread_join(faulter, 0);
  return best == 0 && t[0].precision > 0;
}

static void handlers_called(void)
{
  struct sigaction segv, ill, before[4], after[4];
  sigset_t block, mask_before, mask_after;
  int i, same = 1, chosen, expected_code;

  memset(&segv, 0, sizeof segv);
  segv.sa_sigaction = on_segv;
  segv.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
  sigemptyset(&segv.sa_mask);
  sigaddset(&segv.sa_mask, SIGUSR2);
  sigaction(SIGSEGV, &segv, 0);
  memset(&ill, 0, sizeof ill);
  ill.sa_handler = on_ill;
  sigemptyset(&ill.sa_mask);
  sigaction(SIGILL, &ill, 0);
  sigemptyset(&block);
  sigaddset(&block, SIGUSR1);
  sigaddset(&block, SIGBUS);
  pthread_sigmask(SIG_BLOCK, &block, 0);
  for (i = 0; i < 4; ++i) sigaction(faults[i], 0, &before[i]);
  pthread_sigmask(SIG_BLOCK, 0, &mask_before);

  expected_code = reference_code();
  how = 0;
  chosen = select_with_faulter();

  for (i = 0; i < 4; ++i) sigaction(faults[i], 0, &after[i]);
  pthread_sigmask(SIG_BLOCK, 0, &mask_after);
  CHECK(guard_was_up, "the other thread faulted while the guard was installed");
  CHECK(segv_calls == 1 && segv_in_faulter,
        "its SIGSEGV reached the program's SA_SIGINFO handler, in that thread (%d calls)", segv_calls);
  CHECK(segv_addr_ok && segv_code == expected_code && expected_code > 0,
        "with the real siginfo (address, code %d; a fault without the library: %d)", segv_code,
        expected_code);
  CHECK(segv_blocked_self && segv_blocked_extra,
        "and the handler's mask: SIGSEGV itself and sa_mask's SIGUSR2 blocked");
  CHECK(segv_on_altstack, "on the thread's alternate stack, as SA_ONSTACK asked");
  CHECK(ill_calls == 1 && ill_in_faulter, "a SIGILL the thread sent itself reached the plain handler");
  CHECK(chosen, "the probe itself was not disturbed: its counter was chosen");
  for (i = 0; i < 4; ++i) same &= same_action(&before[i], &after[i]);
  CHECK(same, "SIGILL, SIGFPE, SIGBUS, SIGSEGV: handler, flags and mask as before");
  CHECK(same_set(&mask_before, &mask_after), "the thread's mask as before (SIGUSR1, SIGBUS blocked)");
}

/* In a child: disposition `disp` for SIGSEGV, then the held selection with
   a thread that faults (how 0) or sends itself SIGSEGV (how 1). Returns
   the child's wait status. */
static int child_status(void (*disp)(int), int fault_how)
{
  int status = -1;
  pid_t pid = fork();
  if (pid == 0) {
    struct rlimit none = { 0, 0 };
    setrlimit(RLIMIT_CORE, &none);
    alarm(20);
    signal(SIGSEGV, disp);
    how = fault_how;
    _exit(select_with_faulter() && guard_was_up ? 0 : 3);
  }
  if (pid > 0) waitpid(pid, &status, 0);
  return status;
}

static int killed_by(int status, int sig)
{
  return WIFSIGNALED(status) && WTERMSIG(status) == sig;
}

static void dispositions(void)
{
  int s;
  s = child_status(SIG_DFL, 0);
  CHECK(killed_by(s, SIGSEGV), "SIG_DFL: another thread's fault kills the process by SIGSEGV (status %#x)", s);
  s = child_status(SIG_DFL, 1);
  CHECK(killed_by(s, SIGSEGV), "SIG_DFL: a SIGSEGV sent to another thread kills by SIGSEGV (status %#x)", s);
  s = child_status(SIG_IGN, 1);
  CHECK(WIFEXITED(s) && WEXITSTATUS(s) == 0,
        "SIG_IGN: a SIGSEGV sent to another thread is ignored, the selection completes (status %#x)", s);
  s = child_status(SIG_IGN, 0);
  CHECK(killed_by(s, SIGSEGV), "SIG_IGN: a real fault still kills, as the kernel does (status %#x)", s);
}

/* SA_RESETHAND: used once, the disposition is the default afterwards, as
   it would be without the library. */
static void resethand(void)
{
  struct sigaction segv, after;
  memset(&segv, 0, sizeof segv);
  segv.sa_sigaction = on_segv;
  segv.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigemptyset(&segv.sa_mask);
  sigaction(SIGSEGV, &segv, 0);
  segv_calls = 0;
  how = 0;
  select_with_faulter();
  sigaction(SIGSEGV, 0, &after);
  CHECK(segv_calls == 1, "SA_RESETHAND: the handler ran once (%d)", segv_calls);
  CHECK(!(after.sa_flags & SA_SIGINFO) && after.sa_handler == SIG_DFL,
        "and SIGSEGV is SIG_DFL afterwards");
}

/* A probe that faults on the inaccessible page. */
static int faulting_setup(struct cpucycles_setup *s)
{
  (void)s;
  return *page;
}
static long long no_read(void) { return 0; }
static const struct cpucycles_counter faulting_counter = { no_read, faulting_setup, 0 };
static const struct cpucycles_option faulting_table[1] = { { "faulting", &faulting_counter, 0, 0 } };

/* The guard's handler runs on the selecting thread's alternate stack.
   One set up with SS_AUTODISARM (Linux 4.7) is switched off while a
   handler runs on it and on again when the handler returns, which a
   probe's fault, left by a jump, never does: afterwards the stack must
   be armed as before, or the program's next stack overflow finds none. */
#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1U << 31)
#endif
static void autodisarm(void)
{
  static char stack[65536];
  struct cpucycles_trial t[1];
  stack_t ss, old, after;
  int best;
  ss.ss_sp = stack;
  ss.ss_size = sizeof stack;
  ss.ss_flags = (int)SS_AUTODISARM;
  if (sigaltstack(&ss, &old) != 0) {
    SKIP("autodisarm: sigaltstack refuses SS_AUTODISARM here (an old kernel, or an emulator)");
    return;
  }
  best = cpucycles_select(faulting_table, 1, PERSECOND, 0, t);
  sigaltstack(0, &after);
  sigaltstack(&old, 0);
  CHECK(best < 0, "autodisarm: the faulting probe was refused");
  CHECK(after.ss_sp == (void *)stack && after.ss_size == sizeof stack &&
        ((unsigned)after.ss_flags & SS_AUTODISARM) && !(after.ss_flags & SS_DISABLE),
        "autodisarm: the selecting thread's SS_AUTODISARM alternate stack is armed after a "
        "probe's fault (flags %#x)", (unsigned)after.ss_flags);
}

int main(void)
{
  if (fork_skipped("guard tests")) return 0;
  page = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(page != MAP_FAILED, "an inaccessible page to fault on");
  handlers_called();
  dispositions();
  resethand();
  autodisarm();
  return check_done();
}
