/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* crosscore.c: the measurement of crosscore.h. The bounds rest on
   causality alone: when B takes a reading after seeing A's, B's reading
   is later in time, so with d = B's counter minus A's at one instant,
   d <= B's reading - A's; a reading A takes after B's gives
   d >= B's - A's. The tightest bounds of many handoffs close in on d,
   whatever delays (preemption, a busy host) stretch some of them. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cpus.h"
#include "crosscore.h"

static long long now_ns(void)
{
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Between seeing the other side's reading and taking one's own: a counter
   instruction may run ahead of the load that saw the reading (RDTSC is
   not ordered with loads, nor is an arm64 system register read), and its
   value would then come from before the handoff. Where no instruction
   here orders it (a 32-bit x86 CPU without SSE2's LFENCE, other CPUs) a full
   fence is the best on offer: the bounds may then be loose by the few
   cycles an instruction can run early. */
#if defined(__i386__) && !defined(__SSE2__)
#include <cpuid.h>
/* A build for any 32-bit x86 still runs LFENCE where CPUID says the CPU
   has SSE2, as every x86 CPU since 2004 does (the assembler takes the
   instruction whatever the compiler targets): without it the bounds of
   this machine's x86 build came out crossed, by 270 cycles. Asked once
   (0 not yet, 1 yes, 2 no); two threads asking at once agree. */
static int has_lfence(void)
{
  static volatile int known;
  unsigned a, b, c, d;
  if (!known) known = __get_cpuid(1, &a, &b, &c, &d) && (d >> 26 & 1) ? 1 : 2;
  return known == 1;
}
#endif

static void ordered(void)
{
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__))
  __asm__ __volatile__("lfence" ::: "memory");
#elif defined(__i386__)
  if (has_lfence())
    __asm__ __volatile__("lfence" ::: "memory");
  else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#elif defined(__aarch64__)
  __asm__ __volatile__("isb" ::: "memory");
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

struct side {
  int cpu, err;
  long long bound; /* side 0 (A): the largest lower bound; side 1 (B): the smallest upper */
  int have;
  long long handoffs, backwards, worst;
  int finished;    /* set last, with release: the rest may be read */
};

struct game;

struct player {
  struct game *g;
  int me;
};

/* The handoff slot on a cache line of its own, apart from the flags each
   side polls less often. */
struct game {
  /* odd: A's reading waits; even: B's. A word, not 64 bits: 32-bit
     CPUs (mips, ppc32, m68k, sh4) have no 64-bit atomics without
     libatomic. value is a plain 64-bit field: only the side whose turn
     seq says it is touches it, and seq's release and acquire order it. */
  unsigned long seq __attribute__((aligned(64)));
  long long value;
  int ready __attribute__((aligned(64)));
  int stop;
  crosscore_read_fn *read;
  void *ctx;
  long long start, min_ns, max_ns;
  struct side side[2];
  struct player players[2];
  struct game *next; /* the games left behind */
};

/* A (me 0) checks the clock: stop at min_ns once enough handoffs were
   seen, or at max_ns whatever came of it, on a machine so busy that the
   two threads seldom run at once (a few handoffs leave wide bounds). */
static int over(struct game *g, long long handoffs)
{
  long long t = now_ns() - g->start;
  return (t >= g->min_ns && 2 * handoffs >= CROSSCORE_HANDOFFS) || t >= g->max_ns;
}

/* One side's game. Its tallies stay in this thread's own memory until
   the end: kept in the game, the two sides' would share a cache line,
   and every handoff would move it between the CPUs once more. */
static void play(struct game *g, int me)
{
  struct side s = g->side[me];
  unsigned long expect = me == 0 ? 2 : 1;

  if (__atomic_load_n(&g->stop, __ATOMIC_RELAXED)) return;
  if (me == 0) {
    long long first = g->read(g->ctx, s.cpu);
    g->value = first;
    __atomic_store_n(&g->seq, 1, __ATOMIC_RELEASE);
  }
  for (;;) {
    long long their, mine, c;
    unsigned long spins = 0;
    while (__atomic_load_n(&g->seq, __ATOMIC_ACQUIRE) != expect) {
      if (__atomic_load_n(&g->stop, __ATOMIC_RELAXED)) goto done;
      /* no yield: the partner runs on another CPU, and a handoff needs
         both threads running at once, which giving up this CPU would
         only make rarer on a busy machine */
      if (++spins % 1024 == 0 && me == 0 && over(g, s.handoffs)) goto done;
    }
    ordered();
    their = g->value;
    mine = g->read(g->ctx, s.cpu);
    g->value = mine;
    __atomic_store_n(&g->seq, expect + 1, __ATOMIC_RELEASE);
    expect += 2;
    /* B: d <= mine - their; A: d >= their - mine */
    c = me == 1 ? mine - their : their - mine;
    if (!s.have || (me == 1 ? c < s.bound : c > s.bound)) s.bound = c;
    s.have = 1;
    ++s.handoffs;
    if (mine < their) {
      ++s.backwards;
      if (their - mine > s.worst) s.worst = their - mine;
    }
    if (me == 0 && s.handoffs % 64 == 0 && over(g, s.handoffs)) goto done;
  }
done:
  /* the tallies alone: the other thread may still read this side's err */
  g->side[me].bound = s.bound;
  g->side[me].have = s.have;
  g->side[me].handoffs = s.handoffs;
  g->side[me].backwards = s.backwards;
  g->side[me].worst = s.worst;
}

static void *player(void *arg)
{
  struct player *p = arg;
  struct game *g = p->g;
  struct side *s = &g->side[p->me];

  s->err = cpus_pin(s->cpu);
  __atomic_add_fetch(&g->ready, 1, __ATOMIC_ACQ_REL);
  while (__atomic_load_n(&g->ready, __ATOMIC_ACQUIRE) < 2) {
    if (__atomic_load_n(&g->stop, __ATOMIC_RELAXED)) break;
    if (p->me == 0 && now_ns() - g->start >= g->max_ns) break;
  }
  /* both pinned, or neither plays: the bounds hold for the CPUs named */
  if (__atomic_load_n(&g->ready, __ATOMIC_ACQUIRE) == 2 && !g->side[0].err && !g->side[1].err)
    play(g, p->me);
  __atomic_store_n(&g->stop, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&s->finished, 1, __ATOMIC_RELEASE);
  return 0;
}

/* How long past max_ns the caller waits for a thread still playing: a
   pinned thread whose CPU is taken (a real-time task spinning there, a
   host that deschedules the virtual CPU) may not run for seconds, and
   cpucycles-info must not wait for it. Such a thread is then let go
   anywhere the process may run, and waited for as long again; one that
   still has not finished is left behind (and would hold the process's
   exit, had it stayed pinned). */
#define GRACE_NS 20000000LL

/* A game whose threads did not finish in time stays allocated (they
   still use it: each stops as soon as it runs) and reachable from here. */
static struct game *left_behind;

static int finished(struct game *g, int i)
{
  return __atomic_load_n(&g->side[i].finished, __ATOMIC_ACQUIRE);
}

/* Until both threads finished, or until limit: whether they did. */
static int wait_for(struct game *g, long long limit)
{
  struct timespec pause = {0, 100000};
  for (;;) {
    long long t = now_ns() - g->start;
    if (finished(g, 0) && finished(g, 1)) return 1;
    if (t >= g->max_ns) __atomic_store_n(&g->stop, 1, __ATOMIC_RELAXED);
    if (t >= limit) return 0;
    nanosleep(&pause, 0);
  }
}

int crosscore_pair(crosscore_read_fn *read, void *ctx, int a, int b, long long min_ns,
                   long long max_ns, struct crosscore_pair *p)
{
  struct game *g;
  pthread_t threads[2];
  int err, i, all;
  void *mem;

  memset(p, 0, sizeof *p);
  p->a = a;
  p->b = b;
  /* on the heap, aligned for its cache lines: it may outlive this call */
  err = posix_memalign(&mem, 64, sizeof *g);
  if (err) return err;
  g = mem;
  memset(g, 0, sizeof *g);
  g->read = read;
  g->ctx = ctx;
  g->min_ns = min_ns;
  g->max_ns = max_ns;
  g->side[0].cpu = a;
  g->side[1].cpu = b;
  g->start = now_ns();
  for (i = 0; i < 2; ++i) {
    g->players[i].g = g;
    g->players[i].me = i;
    err = pthread_create(&threads[i], 0, player, &g->players[i]);
    if (err) {
      __atomic_store_n(&g->stop, 1, __ATOMIC_RELAXED);
      if (i) pthread_join(threads[0], 0);
      free(g);
      return err;
    }
  }
  all = wait_for(g, g->max_ns + GRACE_NS);
  if (!all) {
    p->stalled = 1;
    for (i = 0; i < 2; ++i)
      if (!finished(g, i)) cpus_unpin(threads[i]);
    all = wait_for(g, g->max_ns + 2 * GRACE_NS);
  }
  p->ns = now_ns() - g->start;
  for (i = 0; i < 2; ++i) {
    struct side *s = &g->side[i];
    if (all) pthread_join(threads[i], 0);
    else pthread_detach(threads[i]);
    if (!finished(g, i)) continue;
    if (!p->pin_error) p->pin_error = s->err;
    p->handoffs += s->handoffs;
    p->backwards += s->backwards;
    if (s->worst > p->worst) p->worst = s->worst;
  }
  if (finished(g, 0)) p->lo = g->side[0].bound, p->have_lo = g->side[0].have;
  if (finished(g, 1)) p->hi = g->side[1].bound, p->have_hi = g->side[1].have;
  if (all) {
    free(g);
  } else {
    g->next = left_behind;
    left_behind = g;
  }
  return 0;
}

int crosscore_pairs(const int *cpus, int n, int pairs[CROSSCORE_PAIRS][2])
{
  int i, j, k = 0, m;

  if (n <= 6) {
    for (i = 0; i < n; ++i)
      for (j = i + 1; j < n; ++j) {
        pairs[k][0] = cpus[i];
        pairs[k][1] = cpus[j];
        ++k;
      }
    return k;
  }
  /* k * (n - 1) / m for k = 1..m: distinct, since n - 1 >= m, and the
     last is the last CPU */
  m = n - 1 < CROSSCORE_PAIRS ? n - 1 : CROSSCORE_PAIRS;
  for (k = 1; k <= m; ++k) {
    pairs[k - 1][0] = cpus[0];
    pairs[k - 1][1] = cpus[(long long)k * (n - 1) / m];
  }
  return m;
}
