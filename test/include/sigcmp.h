/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* sigcmp.h: whether two signal masks, or two dispositions, are the same
   as far as a program can tell. */
#ifndef SIGCMP_H
#define SIGCMP_H
#include <signal.h>

static int same_set(const sigset_t *a, const sigset_t *b)
{
  int i;
  for (i = 1; i < 65; ++i)
    if (sigismember(a, i) != sigismember(b, i)) return 0;
  return 1;
}

/* The flags a program can set. Linux libcs add a private one (restorer)
   to every action they install, which a never-touched default lacks; a
   program cannot see or set it through sigaction's documented flags. */
#define SETTABLE (SA_NOCLDSTOP | SA_NOCLDWAIT | SA_SIGINFO | SA_ONSTACK | SA_RESTART | \
                  SA_NODEFER | SA_RESETHAND)

static int same_action(const struct sigaction *a, const struct sigaction *b)
{
  return (a->sa_flags & SETTABLE) == (b->sa_flags & SETTABLE) && same_set(&a->sa_mask, &b->sa_mask) &&
         ((a->sa_flags & SA_SIGINFO) ? a->sa_sigaction == b->sa_sigaction
                                      : a->sa_handler == b->sa_handler);
}
#endif
