/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* meanwhile.c: the program installs a new handler for a fault signal
   while the first call's guard is up, as another of its threads might
   at any instant. The library calls sigaction through the program (the
   executable comes first in symbol lookup), so this file's sigaction
   stands in front of libc's: right after the real call puts the guard's
   handler in place for the signal under test, it installs the program's
   second handler over it. The guard's end must leave that second handler
   in place, not the first one it had saved, for SIGFPE and for SIGBUS,
   each in a child of its own; the other three signals must have the
   program's first handler back. (SIGILL and SIGSEGV are left out: a
   probe may raise them, and the second handler would then get it.) */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <cpucycles.h>
#include "check.h"
#include "child.h"
#include "forkable.h"
#include "interpose.h"

static const int faults[4] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };
static const int tested[2] = { SIGFPE, SIGBUS };
static const char *const names[2] = { "SIGFPE", "SIGBUS" };

static int sig_under_test;
static volatile int replace_armed, replacements;

static void first_handler(int sig, siginfo_t *info, void *ctx)
{
  (void)sig;
  (void)info;
  (void)ctx;
}

/* A fault that reaches it would come back forever: the default action
   ends the child instead, which the parent reports. */
static void second_handler(int sig, siginfo_t *info, void *ctx)
{
  struct sigaction dfl;
  (void)info;
  (void)ctx;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, 0);
}

static void set_handler(struct sigaction *sa, void (*fn)(int, siginfo_t *, void *))
{
  memset(sa, 0, sizeof *sa);
  sa->sa_sigaction = fn;
  sa->sa_flags = SA_SIGINFO;
  sigemptyset(&sa->sa_mask);
}

#ifndef NO_INTERPOSING
__attribute__((visibility("default"))) int sigaction(int sig, const struct sigaction *act,
                                                  struct sigaction *old)
{
  int r = real_sigaction(sig, act, old);
  if (r == 0 && replace_armed && sig == sig_under_test && act && (act->sa_flags & SA_SIGINFO) &&
      act->sa_sigaction != first_handler && act->sa_sigaction != second_handler) {
    struct sigaction second;
    replace_armed = 0;
    set_handler(&second, second_handler);
    if (real_sigaction(sig, &second, 0) == 0) ++replacements;
  }
  return r;
}
#endif

static int is(int sig, void (*fn)(int, siginfo_t *, void *))
{
  struct sigaction now;
  return sigaction(sig, 0, &now) == 0 && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == fn;
}

/* Exit bits: 1 the second handler is not in place afterwards, 2 another
   signal lacks the first handler, 4 no replacement happened (the library
   never installed a handler for the signal), 16 setup trouble. */
static int one_signal(void)
{
  struct sigaction first;
  int bad = 0, i;
  set_handler(&first, first_handler);
  for (i = 0; i < 4; ++i)
    if (sigaction(faults[i], &first, 0) != 0) return 16;
  replace_armed = 1;
  cpucycles();
  replace_armed = 0;
  if (!is(sig_under_test, second_handler)) bad |= 1;
  for (i = 0; i < 4; ++i)
    if (faults[i] != sig_under_test && !is(faults[i], first_handler)) bad |= 2;
  if (replacements != 1) bad |= 4;
  return bad;
}

int main(void)
{
  const char *why_not = interpose_why_not();
  int i;
  if (why_not) {
    SKIP("a handler the program installs during the first call: %s", why_not);
    return 0;
  }
  if (fork_skipped("a handler the program installs during the first call")) return 0;
  for (i = 0; i < 2; ++i) {
    int r;
    sig_under_test = tested[i];
    r = held_child(one_signal, 60);
    CHECK(r == 0,
          "%s: a handler the program installs while the guard is up stays in place after the "
          "first call, and the other signals get the program's handler back (exit %d)",
          names[i], r);
  }
  return check_done();
}
