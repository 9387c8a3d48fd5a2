/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* crossreport.c: what the crosscore measurement means, in the lines of
   doc/trust.md, and when it does not apply. */
#include <string.h>
#include "crosscore.h"

/* How long a pair is measured: MIN, once it has enough handoffs to find
   a fast one, else up to MAX, on a machine so busy the two threads seldom
   run at once. */
#define PAIR_MIN_NS 2000000LL
#define PAIR_MAX_NS 50000000LL

/* Bounds that cross (lower above upper) contradict each other: no one
   offset explains the handoffs. The counters then run at different
   rates, or a reading is not ordered with the load beside it; such a
   pair is named, and gives no offset. */
static int crossed(const struct crosscore_pair *p)
{
  return !p->pin_error && !p->stalled && p->have_lo && p->have_hi && p->lo > p->hi;
}

static int measured(const struct crosscore_pair *p)
{
  return !p->pin_error && !p->stalled && p->have_lo && p->have_hi && !crossed(p);
}

/* How far from 0 the offset is known to be at least (0: it may be 0). */
static long long surely(const struct crosscore_pair *p)
{
  return p->lo > 0 ? p->lo : p->hi < 0 ? -p->hi : 0;
}

/* How far from 0 it may be at most. */
static long long maybe(const struct crosscore_pair *p)
{
  long long l = p->lo < 0 ? -p->lo : p->lo, h = p->hi < 0 ? -p->hi : p->hi;
  return l > h ? l : h;
}

static void pair_line(FILE *out, const struct crosscore_pair *p)
{
  double ms = (double)p->ns / 1e6;
  if (p->pin_error)
    fprintf(out, "cpucycles crosscore pair-unpinned cpu%d cpu%d (%s): a thread could not be "
                 "started or pinned there, so this pair was not measured\n", p->a, p->b,
            strerror(p->pin_error));
  else if (p->stalled)
    fprintf(out, "cpucycles crosscore pair-stalled cpu%d cpu%d ms %.1f: a thread pinned there had "
                 "not run to its end in time (its CPU taken by a real-time task, or a very busy "
                 "machine), so it was left to stop when it runs, and the pair has no bounds\n",
            p->a, p->b, ms);
  else if (crossed(p))
    fprintf(out, "cpucycles crosscore pair-crossed cpu%d cpu%d offset %lld...%lld handoffs %lld "
                 "ms %.1f: the lower bound is above the upper, so no one offset explains the "
                 "handoffs: the two CPUs' counters run at different rates, or a reading runs "
                 "ahead of the handoff it answers; this pair gives no offset\n", p->a, p->b,
            p->lo, p->hi, p->handoffs, ms);
  else if (!measured(p))
    fprintf(out, "cpucycles crosscore pair-unmeasured cpu%d cpu%d handoffs %lld ms %.1f: the two "
                 "threads seldom ran at once (a busy machine), so no bound both ways\n", p->a,
            p->b, p->handoffs, ms);
  else
    fprintf(out, "cpucycles crosscore pair cpu%d cpu%d offset %lld...%lld handoffs %lld "
                 "backwards %lld ms %.1f\n", p->a, p->b, p->lo, p->hi, p->handoffs, p->backwards,
            ms);
}

void crosscore_report(FILE *out, const struct crosscore_pair *p, int np, int n)
{
  const struct crosscore_pair *worst = 0, *back = 0;
  long long handoffs = 0, backwards = 0, width;
  int i, k = 0;

  for (i = 0; i < np; ++i) {
    pair_line(out, &p[i]);
    if (!measured(&p[i])) continue;
    ++k;
    handoffs += p[i].handoffs;
    backwards += p[i].backwards;
    if (p[i].backwards && (!back || p[i].worst > back->worst)) back = &p[i];
    if (!worst || surely(&p[i]) > surely(worst) ||
        (surely(&p[i]) == surely(worst) && maybe(&p[i]) > maybe(worst)))
      worst = &p[i];
  }
  if (!worst) {
    fprintf(out, "cpucycles crosscore unmeasured (%d pairs of %d CPUs tried): no pair gave "
                 "bounds both ways, so the offset between CPUs is not known\n", np, n);
    return;
  }
  width = worst->hi - worst->lo;
  fprintf(out, "cpucycles crosscore offset %lld cycles cpu%d cpu%d within %lld...%lld (%d pairs "
               "of %d CPUs measured): ", worst->lo + width / 2, worst->a, worst->b, worst->lo,
          worst->hi, k, n);
  if (!surely(worst))
    fprintf(out, "no offset shows: the counters agree to within this measurement's resolution "
                 "of %lld cycles (a handoff there and back)\n", width);
  else
    fprintf(out, "cpu%d's counter runs %s cpu%d's by %lld to %lld cycles\n", worst->b,
            worst->lo > 0 ? "ahead of" : "behind", worst->a, surely(worst), maybe(worst));

  if (back)
    fprintf(out, "cpucycles crosscore backwards %lld of %lld handoffs, up to %lld cycles (cpu%d "
                 "cpu%d): a reading on one CPU was below an earlier reading on another\n",
            backwards, handoffs, back->worst, back->a, back->b);
  else
    fprintf(out, "cpucycles crosscore backwards-none 0 of %lld handoffs: no reading on one CPU "
                 "was below an earlier reading on another\n", handoffs);

  if (back)
    fprintf(out, "cpucycles crosscore unpinned-backwards %lld: a benchmark that migrates "
                 "mid-measurement can get a difference off by that much, even negative: pin "
                 "it to one CPU (taskset -c %d ...)\n", maybe(worst), worst->a);
  else if (surely(worst))
    fprintf(out, "cpucycles crosscore unpinned-offset %lld: a benchmark that migrates "
                 "mid-measurement can be off by up to that many cycles: pin it (taskset -c %d "
                 "...), or measure spans far longer than that\n", maybe(worst), worst->a);
  else
    fprintf(out, "cpucycles crosscore unpinned-ok %lld: migrating between these CPUs adds no "
                 "error this check can see at its resolution (it still costs cold caches)\n",
            width);
}

void crosscore_info(FILE *out, const char *impl, int no_counter, int per_thread,
                    crosscore_read_fn *read, void *ctx, const int *cpus, int n)
{
  struct crosscore_pair p[CROSSCORE_PAIRS];
  int pairs[CROSSCORE_PAIRS][2], np, i;

  if (no_counter) {
    fprintf(out, "cpucycles crosscore no-counter %s: every reading is 0, so there is nothing to "
                 "compare between CPUs\n", impl);
    return;
  }
  if (per_thread) {
    fprintf(out, "cpucycles crosscore per-thread %s: each thread counts its own cycles through a "
                 "perf event of its own, which the kernel carries along when the thread "
                 "migrates: one thread's counts never jump between CPUs, and two threads' counts "
                 "are not comparable, so the check between CPUs does not apply\n", impl);
    return;
  }
  if (n <= 0) {
    fprintf(out, "cpucycles crosscore not-available (no sched_getaffinity here): threads cannot "
                 "be pinned to CPUs on this system, so the offset of %s between CPUs is not "
                 "measured\n", impl);
    return;
  }
  if (n == 1) {
    fprintf(out, "cpucycles crosscore one-cpu cpu%d: the process may run on this CPU alone, so "
                 "it never migrates and there is no other CPU to compare\n", cpus[0]);
    return;
  }
  np = crosscore_pairs(cpus, n, pairs);
  for (i = 0; i < np; ++i) {
    int err = crosscore_pair(read, ctx, pairs[i][0], pairs[i][1], PAIR_MIN_NS, PAIR_MAX_NS, &p[i]);
    if (err) p[i].pin_error = err;
  }
  crosscore_report(out, p, np, n);
}
