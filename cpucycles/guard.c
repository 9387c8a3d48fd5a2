/* guard.c: survive the faults that probing a counter can raise, and only
   those. The handlers are process-wide while the guard is up, so every
   signal that is not the probing thread's own fault is passed on exactly
   as the kernel would have delivered it without us. */
#define _XOPEN_SOURCE 700 /* SA_ONSTACK */
#include <signal.h>
#include <string.h>
#include "guard.h"

#define NGUARDED 4
static const int guarded[NGUARDED] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };
static struct sigaction saved[NGUARDED];
static sigset_t saved_mask;

sigjmp_buf cpucycles_guard_jump;
CPUCYCLES_THREAD_LOCAL volatile int cpucycles_guard_armed;

/* Kernel-made signals (faults) carry a positive si_code; kill, tgkill and
   sigqueue leave it at or below zero. */
static int sent(const siginfo_t *info)
{
  return info && info->si_code <= 0;
}

/* The signal as the previous disposition would have taken it. A fault
   returns to the faulting instruction, which then faults again under the
   restored disposition: that is how SIG_DFL kills with the right status
   and core, and how the kernel treats an ignored fault. A sent signal does
   not come back by itself, so it is raised again or dropped. */
static void pass_on(int sig, siginfo_t *info, void *context, int i)
{
  struct sigaction old = saved[i];
  sigset_t during;

  if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) {
    if (!sent(info)) sigaction(sig, &old, 0);
    return;
  }
  if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
    sigaction(sig, &old, 0);
    if (sent(info)) raise(sig);
    return;
  }
  /* Our handler runs with SA_NODEFER and an empty sa_mask, so the mask
     here is still the interrupted one: add what the kernel would have. */
  during = old.sa_mask;
  if (!(old.sa_flags & SA_NODEFER)) sigaddset(&during, sig);
  sigprocmask(SIG_BLOCK, &during, 0);
  if (old.sa_flags & SA_RESETHAND) {
    /* Used up: guard_end must give back the default, as the kernel would. */
    memset(&saved[i], 0, sizeof saved[i]);
    saved[i].sa_handler = SIG_DFL;
    sigemptyset(&saved[i].sa_mask);
  }
  if (old.sa_flags & SA_SIGINFO) old.sa_sigaction(sig, info, context);
  else old.sa_handler(sig);
}

static void on_fault(int sig, siginfo_t *info, void *context)
{
  int i;
  if (cpucycles_guard_armed) siglongjmp(cpucycles_guard_jump, 1);
  for (i = 0; i < NGUARDED; ++i)
    if (guarded[i] == sig) pass_on(sig, info, context, i);
}

static int ours(const struct sigaction *sa)
{
  return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == on_fault;
}

static void give_back(int n)
{
  int i;
  for (i = 0; i < n; ++i) {
    struct sigaction now;
    /* Someone who installed a handler meanwhile keeps it. */
    if (sigaction(guarded[i], 0, &now) == 0 && ours(&now)) sigaction(guarded[i], &saved[i], 0);
  }
}

/* Installs the handlers once for the whole selection. A blocked SIGSEGV
   raised by a fault kills the process, so the four signals are unblocked
   in this thread until cpucycles_guard_end puts everything back. */
int cpucycles_guard_begin(void)
{
  sigset_t faults;
  int i;

  sigemptyset(&faults);
  for (i = 0; i < NGUARDED; ++i) sigaddset(&faults, guarded[i]);
  if (sigprocmask(SIG_UNBLOCK, &faults, &saved_mask) != 0) return -1;
  for (i = 0; i < NGUARDED; ++i) {
    struct sigaction now, sa;
    if (sigaction(guarded[i], 0, &now) != 0) break;
    /* A child forked by another thread in mid-selection inherits our
       handler; what it must give back is what its parent saved. */
    if (!ours(&now)) saved[i] = now;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | (saved[i].sa_flags & (SA_ONSTACK | SA_RESTART));
    sigemptyset(&sa.sa_mask);
    if (sigaction(guarded[i], &sa, 0) != 0) break;
  }
  if (i < NGUARDED) {
    give_back(i);
    sigprocmask(SIG_SETMASK, &saved_mask, 0);
    return -1;
  }
  cpucycles_guard_armed = 0;
  return 0;
}

void cpucycles_guard_end(void)
{
  cpucycles_guard_armed = 0;
  give_back(NGUARDED);
  sigprocmask(SIG_SETMASK, &saved_mask, 0);
}
