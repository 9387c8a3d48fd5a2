/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* gaps.c: the 32-bit extension the library hands out (cpucycles_chosen,
   the real wrapper) on synthetic counters at 24 MHz, 200 MHz and 3 GHz,
   while the cycles-per-second estimate says 2399987654: read by threads
   started after simulated gaps of a second to ten hours, by a thread that
   reads through an hour, by threads racing each other, from a signal
   handler that interrupts a thread moving the shared anchor, and in a
   child forked while another thread was moving it. Every reading must be
   the exact 64-bit count.

   No real time passes. This program defines cpucycles_os_ns, so the
   library's own OS clock is not linked in: each thread keeps its own
   simulated clock, which advances a little at every clock or counter
   read and by whole gaps where the test says so. The counter is a
   function of the reading thread's simulated time, so the exact count of
   every reading is known: the origin's 32-bit value plus the ticks
   between the origin's counter read and this one. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <unistd.h>
#include <signal.h>
#include <string.h>
#include "check.h"
#include "forkable.h"
#include "internal.h"

#define ESTIMATE 2399987654LL /* the library's fallback estimate */
#define STEP 40               /* simulated ns one clock or counter read takes */
#define SECOND 1000000000LL
#define RACERS 4
#define RACE_READS 2000

/* This thread's simulated clock; the time of the first counter read of
   the reading in progress (-1: none yet) and of the last counter read. */
static __thread long long sim_ns;
static __thread long long first_read_ns = -1;
static __thread long long last_read_ns;
/* Counter reads left before this thread raises SIGUSR1, or before it
   stops until told to go on (0: never); counter reads so far. */
static __thread int raise_after, stop_after;
static __thread long long counter_reads;
/* Ticks this thread's counter runs ahead of the others' (0: in step). */
static __thread long long offset_ticks;
/* A reader that stops in counter32 and the main thread hand each other a
   byte through these pipes (POSIX semaphores are unnamed-only and missing
   on macOS; a pipe works everywhere and survives fork). */
static int stopped[2] = { -1, -1 }, go_on[2] = { -1, -1 };

static void post(int *p)
{
  while (write(p[1], "", 1) != 1) {}
}

static void wait_for(int *p)
{
  char c;
  while (read(p[0], &c, 1) != 1) {}
}

long long cpucycles_os_ns(void)
{
  long long t = sim_ns;
  sim_ns += STEP;
  return t;
}

/* The synthetic counter: rate ticks per second, C0 at time 0. */
static long long rate;
#define C0 0xfffff000LL

static long long ticks_at(long long ns)
{
  return C0 + ns / SECOND * rate + ns % SECOND * rate / SECOND;
}

static long long counter32(void)
{
  long long t = sim_ns;
  sim_ns += STEP;
  last_read_ns = t;
  if (first_read_ns < 0) first_read_ns = t;
  counter_reads++;
  if (raise_after > 0 && --raise_after == 0) raise(SIGUSR1);
  if (stop_after > 0 && --stop_after == 0) {
    post(stopped);
    wait_for(go_on);
  }
  return (long long)(unsigned int)(ticks_at(t) + offset_ticks);
}

/* What the library handed out, and the time of the origin's counter read. */
static long long (*extended)(void);
static long long origin_ns;

/* The exact count of a reading whose counter read happened at t. */
static long long exact(long long t)
{
  return (long long)(unsigned int)ticks_at(origin_ns) + ticks_at(t) - ticks_at(origin_ns);
}

/* One reading through the library; *t gets the time of its counter read. */
static long long reading(long long *t)
{
  long long v;
  first_read_ns = -1;
  v = extended();
  *t = first_read_ns;
  return v;
}

/* The first wrong reading of a scene, for its CHECK line. */
struct scene {
  long long readings, wrong, got, want, at;
};

static long long checked(struct scene *s)
{
  long long t, v = reading(&t);
  s->readings++;
  if (v != exact(t)) {
    if (!s->wrong) {
      s->got = v;
      s->want = exact(t);
      s->at = t;
    }
    s->wrong++;
  }
  return v;
}

static void report(const struct scene *s, const char *what)
{
  if (s->wrong == 0)
    CHECK(s->readings > 0, "%lld Hz: %s: %lld readings, all exact", rate, what, s->readings);
  else
    CHECK(0, "%lld Hz: %s: %lld of %lld readings wrong; the first %lld, exact %lld "
          "(%+.3f wraps) at %.3f s", rate, what, s->wrong, s->readings, s->got, s->want,
          (double)(s->got - s->want) / 4294967296.0, (double)s->at / 1e9);
}

/* A thread whose clock starts where its creator's stood, reading `reads`
   times `advance` ns apart; its creator's clock then takes up its end. */
struct thread {
  pthread_t id;
  long long start_ns, end_ns, advance, first, last, decreases;
  int reads;
  struct scene scene;
};

static void *reader_thread(void *arg)
{
  struct thread *th = arg;
  long long v;
  int i;
  sim_ns = th->start_ns;
  for (i = 0; i < th->reads; ++i) {
    if (i) sim_ns += th->advance;
    v = checked(&th->scene);
    if (i == 0) th->first = v;
    else th->decreases += v < th->last;
    th->last = v;
  }
  th->end_ns = sim_ns;
  return 0;
}

static int start(struct thread *th, int reads, long long advance)
{
  memset(&th->scene, 0, sizeof th->scene);
  th->start_ns = sim_ns;
  th->reads = reads;
  th->advance = advance;
  th->decreases = 0;
  return pthread_create(&th->id, 0, reader_thread, th) == 0;
}

static void finish(struct thread *th)
{
  pthread_join(th->id, 0);
  if (th->end_ns > sim_ns) sim_ns = th->end_ns;
}

static void merge(struct scene *into, const struct scene *s)
{
  if (s->wrong && !into->wrong) {
    into->got = s->got;
    into->want = s->want;
    into->at = s->at;
  }
  into->wrong += s->wrong;
  into->readings += s->readings;
}

/* After each gap in which nobody read: a new thread reads first and must
   bridge the whole gap; then, after the same gap again, the creator reads
   and starts a thread at once, whose first reading must follow it. */
static void quiet_gaps(void)
{
  static const long long gaps[] = { 1, 10, 60, 3600, 36000 };
  struct scene s;
  struct thread th;
  unsigned int i;
  long long creator;
  int behind = 0;

  memset(&s, 0, sizeof s);
  for (i = 0; i < sizeof gaps / sizeof gaps[0]; ++i) {
    sim_ns += gaps[i] * SECOND;
    if (!start(&th, 3, 1000)) break;
    finish(&th);
    merge(&s, &th.scene);
    sim_ns += gaps[i] * SECOND;
    creator = checked(&s);
    if (!start(&th, 3, 1000)) break;
    finish(&th);
    merge(&s, &th.scene);
    behind += th.first < creator;
  }
  report(&s, "threads started after quiet gaps of 1 s to 10 h");
  CHECK(behind == 0 && i == sizeof gaps / sizeof gaps[0],
        "%lld Hz: a thread started after its creator's reading never reads less (%d did; %u gaps run)",
        rate, behind, i);
}

/* The creator reads every 0.1 s for an hour, keeping the anchor fresh;
   then a new thread bridges only what is left since. */
static void busy_hour(void)
{
  struct scene s;
  struct thread th;
  long long end = sim_ns + 3600 * SECOND;

  memset(&s, 0, sizeof s);
  while (sim_ns < end) {
    sim_ns += SECOND / 10;
    checked(&s);
  }
  if (start(&th, 3, 1000)) {
    finish(&th);
    merge(&s, &th.scene);
  }
  report(&s, "a creator reading through an hour, then a new thread");
}

/* Threads reading at once, each a sixteenth of a wrap apart in its own
   time, so the anchor is moved over and over while others read it. */
static void race(void)
{
  struct thread th[RACERS];
  struct scene s;
  long long wrap_ns = (long long)(4294967296.0 * 1e9 / (double)rate);
  long long decreases = 0;
  int i, n;

  memset(&s, 0, sizeof s);
  for (n = 0; n < RACERS; ++n)
    if (!start(&th[n], check_reps(RACE_READS), wrap_ns / 16 + n * 7919)) break;
  for (i = 0; i < n; ++i) {
    finish(&th[i]);
    merge(&s, &th[i].scene);
    decreases += th[i].decreases;
  }
  report(&s, "threads racing, the anchor moved under them");
  CHECK(n == RACERS && decreases == 0,
        "%lld Hz: %d racing threads, each one's readings never decrease (%lld did)", rate, n,
        decreases);
}

/* Two threads on cores whose counters are not in step (cycle counters
   that each core started on its own), reading in turns while each moves
   the anchor in turn: a reading's low 32 bits are its own core's counter
   and the clock picks only the wraps, so each thread's count must step by
   exactly the ticks between its own readings, the other core's offset
   never leaking in. */
struct stepper {
  pthread_t id;
  long long start_ns, advance, offset, steps, wrong;
};
/* The two take turns reading: a reusable two-party barrier (POSIX
   barriers are missing on macOS). */
static struct {
  pthread_mutex_t lock;
  pthread_cond_t turn;
  int waiting;
  unsigned long round;
} lockstep = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };

static void lockstep_wait(void)
{
  unsigned long round;
  pthread_mutex_lock(&lockstep.lock);
  round = lockstep.round;
  if (++lockstep.waiting == 2) {
    lockstep.waiting = 0;
    lockstep.round++;
    pthread_cond_broadcast(&lockstep.turn);
  } else {
    while (lockstep.round == round) pthread_cond_wait(&lockstep.turn, &lockstep.lock);
  }
  pthread_mutex_unlock(&lockstep.lock);
}

static void *stepper_thread(void *arg)
{
  struct stepper *st = arg;
  long long t, previous_t = 0, v, previous = 0;
  int i;
  sim_ns = st->start_ns;
  offset_ticks = st->offset;
  for (i = 0; i < check_reps(RACE_READS); ++i) {
    sim_ns += st->advance;
    lockstep_wait();
    v = reading(&t);
    if (i) {
      st->steps++;
      st->wrong += v - previous != ticks_at(t) - ticks_at(previous_t);
    }
    previous = v;
    previous_t = t;
  }
  return 0;
}

static void out_of_step(void)
{
  struct stepper st[2];
  long long wrap_ns = (long long)(4294967296.0 * 1e9 / (double)rate);
  int i, n;

  memset(st, 0, sizeof st);
  for (n = 0; n < 2; ++n) {
    st[n].start_ns = sim_ns + n * (wrap_ns / 40);
    st[n].advance = wrap_ns / 16;
    st[n].offset = n ? 1234567891 : 0;
    if (pthread_create(&st[n].id, 0, stepper_thread, &st[n]) != 0) break;
  }
  if (n < 2) {
    CHECK(0, "%lld Hz: two threads for the out-of-step test", rate);
    if (n) pthread_cancel(st[0].id);
    return;
  }
  for (i = 0; i < n; ++i) {
    pthread_join(st[i].id, 0);
    if (sim_ns < st[i].start_ns + st[i].advance * check_reps(RACE_READS))
      sim_ns = st[i].start_ns + st[i].advance * check_reps(RACE_READS);
  }
  CHECK(st[0].wrong == 0 && st[1].wrong == 0 && st[0].steps > 0,
        "%lld Hz: two threads whose counters are 1234567891 ticks apart each count their own "
        "ticks exactly from reading to reading (%lld and %lld of %lld and %lld steps wrong)",
        rate, st[0].wrong, st[1].wrong, st[0].steps, st[1].steps);
}

/* A handler that reads, run from inside the anchor's move (the counter
   read between its two clock readings) in the same thread. */
static volatile sig_atomic_t handled;
static long long handler_value, handler_read_ns;

static void on_signal(int sig)
{
  long long outer = first_read_ns;
  (void)sig;
  handler_value = reading(&handler_read_ns);
  first_read_ns = outer;
  handled = 1;
}

static void signal_in_writer(void)
{
  struct sigaction sa, old;
  long long wrap_ns = (long long)(4294967296.0 * 1e9 / (double)rate);
  long long t, v;

  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGUSR1, &sa, &old) != 0) {
    CHECK(0, "sigaction for SIGUSR1");
    return;
  }
  handled = 0;
  /* Older than a quarter wrap: this reading moves the anchor, and its
     second counter read is the one inside the move. */
  sim_ns += wrap_ns / 2 + 12345;
  raise_after = 2;
  v = reading(&t);
  raise_after = 0;
  sigaction(SIGUSR1, &old, 0);
  CHECK(handled && handler_value == exact(handler_read_ns),
        "%lld Hz: a reading from a handler interrupting the anchor's move is exact "
        "(ran %d, %lld vs %lld)",
        rate, (int)handled, handler_value, exact(handler_read_ns));
  CHECK(v == exact(t), "%lld Hz: the interrupted reading is exact (%lld vs %lld)", rate, v,
        exact(t));
}

/* A process forked while another thread was moving the anchor: that
   writer is not in the child, whose anchor must still move. */
static void *mover(void *arg)
{
  long long t;
  sim_ns = *(long long *)arg;
  stop_after = 2; /* the counter read inside the move */
  reading(&t);
  return 0;
}

static int child_reads(long long start_ns)
{
  long long t, before;
  int bad = 0;
  sim_ns = start_ns;
  before = counter_reads;
  bad |= reading(&t) != exact(t);
  bad |= (counter_reads - before != 2) << 1; /* it moved the anchor */
  sim_ns += 1000;
  before = counter_reads;
  bad |= reading(&t) != exact(t);
  bad |= (counter_reads - before != 1) << 2; /* and found it fresh next time */
  return bad;
}

static void fork_in_move(void)
{
  long long wrap_ns = (long long)(4294967296.0 * 1e9 / (double)rate);
  long long mover_ns = sim_ns + wrap_ns / 2, child_ns = sim_ns + wrap_ns;
  pthread_t id;
  pid_t pid;
  int status = -1;

  if ((stopped[0] < 0 && pipe(stopped) != 0) || (go_on[0] < 0 && pipe(go_on) != 0) ||
      pthread_create(&id, 0, mover, &mover_ns) != 0) {
    CHECK(0, "%lld Hz: pipes and a thread for the fork test", rate);
    return;
  }
  wait_for(stopped);
  fflush(stdout);
  pid = fork();
  if (pid == 0) _exit(child_reads(child_ns));
  if (pid > 0) waitpid(pid, &status, 0);
  post(go_on);
  pthread_join(id, 0);
  if (sim_ns < child_ns) sim_ns = child_ns;
  CHECK(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
        "%lld Hz: a child forked while another thread moved the anchor moves it itself and "
        "reads exactly (exit bits %d: 1 inexact, 2 did not move it, 4 moved it again)", rate,
        pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void run(long long hz, int forks)
{
  struct cpucycles_trial t;
  struct cpucycles_setup s;

  memset(&t, 0, sizeof t);
  /* names the extension, as a 32-bit counter's setup does */
  cpucycles_setup_only32(&s);
  t.only32 = s.only32;
  t.extension = s.extension;
  t.scale.whole = 1;
  rate = hz;
  sim_ns = 5 * SECOND;
  extended = cpucycles_chosen(counter32, &t, ESTIMATE);
  origin_ns = last_read_ns;
  CHECK(extended != counter32, "%lld Hz: a 32-bit counter is not handed out raw", rate);
  quiet_gaps();
  busy_hour();
  race();
  out_of_step();
  signal_in_writer();
  if (forks) fork_in_move();
}

int main(void)
{
  int forks = fork_works();
  if (!forks) SKIP("the fork tests: fork() does not work here (a trivial child never exited)");
  run(24000000, forks);
  run(200000000, forks);
  run(3000000000LL, forks);
  return check_done();
}
