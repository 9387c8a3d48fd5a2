/* guard.c: survive the faults that probing a counter can raise. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>
#include "guard.h"

static const int guarded[4] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };
static struct sigaction saved[4];
static sigset_t saved_mask;

sigjmp_buf cpucycles_guard_jump;
volatile int cpucycles_guard_armed;

static void on_fault(int sig)
{
  int i;
  if (cpucycles_guard_armed) siglongjmp(cpucycles_guard_jump, 1);
  /* Not a probe's fault: hand the signal back to whoever had it. Returning
     from a real fault re-executes the instruction under the old action. */
  for (i = 0; i < 4; ++i)
    if (guarded[i] == sig) sigaction(sig, &saved[i], 0);
}

/* Installs the handlers once for the whole selection. A blocked SIGSEGV
   raised by a fault kills the process, so the four signals are unblocked
   in this thread until cpucycles_guard_end puts everything back. */
int cpucycles_guard_begin(void)
{
  struct sigaction sa;
  sigset_t faults;
  int i, j;

  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fault;
  sigemptyset(&sa.sa_mask);
  sigemptyset(&faults);
  for (i = 0; i < 4; ++i) sigaddset(&faults, guarded[i]);
  if (sigprocmask(SIG_UNBLOCK, &faults, &saved_mask) != 0) return -1;
  for (i = 0; i < 4; ++i) {
    if (sigaction(guarded[i], &sa, &saved[i]) != 0) {
      for (j = 0; j < i; ++j) sigaction(guarded[j], &saved[j], 0);
      sigprocmask(SIG_SETMASK, &saved_mask, 0);
      return -1;
    }
  }
  cpucycles_guard_armed = 0;
  return 0;
}

void cpucycles_guard_end(void)
{
  int i;
  cpucycles_guard_armed = 0;
  for (i = 0; i < 4; ++i) sigaction(guarded[i], &saved[i], 0);
  sigprocmask(SIG_SETMASK, &saved_mask, 0);
}
