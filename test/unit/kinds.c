/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* kinds.c: the kind that cpucycles/options gives each counter, as
   configure wrote its penalty beside it (options.c), is the one its setup
   reports. A first call passes over, without its setup, a counter whose
   kind cannot beat the best so far, so a table that said "osclock" for a
   cycle counter would lose it silently. Every compiled counter is set up
   here under the guard, as the selection does; one that cannot work here
   says so and is skipped. */
#define _POSIX_C_SOURCE 200809L /* sigjmp_buf (guard.h), which C99 alone hides */
#include <setjmp.h>
#include <string.h>
#include "check.h"
#include "guard.h"
#include "internal.h"

/* The selection's penalty of the kind a setup reports (select.c). */
static int penalty_of(enum cpucycles_kind kind)
{
  switch (kind) {
  case CPUCYCLES_CORE: return CPUCYCLES_PENALTY_CORE;
  case CPUCYCLES_OSCLOCK: return CPUCYCLES_PENALTY_OSCLOCK;
  default: return CPUCYCLES_PENALTY_OFFCORE;
  }
}

int main(void)
{
  int i;
  volatile int set_up = 0; /* kept across the jumps back */
  if (cpucycles_guard_begin(0) != 0) {
    SKIP("the signal guard cannot be put up here");
    return 0;
  }
  for (i = 0; i < cpucycles_noptions; ++i) {
    const struct cpucycles_option *o = &cpucycles_options[i];
    struct cpucycles_setup s;
    /* volatile: read after a jump back from the guard */
    volatile int worked = 0;
    memset(&s, 0, sizeof s);
    if (CPUCYCLES_GUARD_SETJMP()) {
      cpucycles_guard_armed = 0;
      cpucycles_guard_remask();
    } else {
      cpucycles_guard_armed = 1;
      worked = o->counter->setup(&s) == 0;
      cpucycles_guard_armed = 0;
    }
    if (!worked) {
      SKIP("%s cannot work here, so its setup reports no kind", o->name);
      continue;
    }
    ++set_up;
    CHECK(o->penalty != CPUCYCLES_PENALTY_NONE, "%s: works here, and the table gives it a clock's kind, not none",
          o->name);
    CHECK(penalty_of(s.kind) == o->penalty,
          "%s: its setup's kind has the penalty its table kind has (%d, table %d)", o->name,
          penalty_of(s.kind), o->penalty);
    if (o->counter->release) o->counter->release();
  }
  cpucycles_guard_end();
  CHECK(set_up > 0, "at least one counter works here (%d)", set_up);
  return check_done();
}
