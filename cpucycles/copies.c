/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* copies.c: how copies of this library in one process share the four
   fault signals (copies.h says when there are several). Copies share no
   memory, only the kernel's handlers, so the protocol is written there:
   - a mark: a copy's handler has an exact sa_mask and flags, naming the
     thread whose guard it is (mark_of);
   - a turn: SIGILL's handler says which copy guards now; a copy installs
     the other three only once it holds SIGILL, and gives SIGILL back
     last (take_turn);
   - exchanges: every install and give-back is one sigaction that
     returns what it replaced, so a copy knows exactly what to give back
     even when another acts at the same instant (exchange, settling);
   - waits: a copy that finds another's handler over its own waits for
     that copy to give back, for as long as that copy's thread goes on
     (struct wait).
   Beside no other copy nothing here waits: a guard makes one look and
   four exchanges to install, and four exchanges and a look to give
   back. */
#define _GNU_SOURCE /* SA_ONSTACK, O_CLOEXEC; syscall() */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif
#include "copies.h"
#include "internal.h"
#include "prebound.h"

/* What each exchange replaced, and each give-back restores (copies.h). */
struct sigaction cpucycles_copies_saved[NGUARDED];

/* An exchange of our handler for signal i is under way (i + 1), by this
   thread if settling_here (BLIND when no look came before it): until it
   returns, cpucycles_copies_saved[i] holds what a look just before it
   found, which another copy may have replaced meanwhile, or after no
   look, nothing known yet. */
static int settling; /* atomic */
static CPUCYCLES_THREAD_LOCAL volatile int settling_here;
#define BLIND 2
static long guard_thread; /* the thread whose guard is up, as its mark names it */

/* A wait for another thread (a copy's selection, an exchange's answer)
   goes on while that thread goes on: while it uses CPU time, or is
   running or waiting for a CPU, which a loaded machine or a virtual CPU
   stalled by its host can keep it doing for long stretches without a
   nanosecond of its own. It ends once the thread has done neither for
   WAIT_IDLE_NS, being asleep or stopped (a handler in it waiting on this
   very thread's selection, say); once the thread has spun through
   WAIT_MAX_CPU_NS of CPU time meanwhile (a selection takes tens of
   microseconds of it, tens of milliseconds under valgrind or a system
   emulator); and in any case after WAIT_MAX_NS. Ending early is not
   free: a copy that stops waiting for the copy nested over it leaves
   that copy's handler in place, and the other copy then gives back this
   one's handler, not the program's, for good. (Where only the CPU time
   was asked, the waits of a loaded riscv64 guest ran out so.) The one
   window left is a copy's thread stopped for WAIT_IDLE_NS between an
   exchange whose look raced another copy's install and its putting that
   back (take_turn): a handler that sleeps there looks to the copy below
   just as one waiting on it does. Counted on the OS clock, not in
   sleeps, which a program's signals cut short; asked only once a wait
   has begun, so a first call that waits for nothing reads no clock
   here. */
#define WAIT_IDLE_NS 100000000LL
#define WAIT_MAX_CPU_NS 2000000000LL
#define WAIT_MAX_NS 30000000000LL
struct wait {
  long long idle_end, end, cpu, cpu_end;
};

/* Nanoseconds of CPU time thread tid of this process has used (Linux:
   its CPU-time clock, numbered from the id as the kernel defines it); -1
   when not known. */
static long long thread_cpu(long tid)
{
#ifdef __linux__
  struct timespec ts;
  if (tid > 0 && clock_gettime((clockid_t)(~(unsigned long)tid << 3 | 6), &ts) == 0)
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
#else
  (void)tid;
#endif
  return -1;
}

/* Whether thread tid of this process is running or waiting for a CPU
   (R), or in an uninterruptible wait that ends by itself (D), as Linux's
   /proc/self/task/<tid>/stat says; 0 when asleep, stopped or not known
   (no /proc: the CPU time alone then tells). The state follows the
   command's name, in parentheses, which may itself hold ") ", and is
   within the first 64 bytes: a name has at most 15. */
static int thread_going_on(long tid)
{
#ifdef __linux__
  char path[32], *p = path + sizeof path, stat[64];
  int fd;
  long got, k;
  if (tid <= 0) return 0;
  *--p = 0;
  memcpy(p -= 5, "/stat", 5);
  do *--p = (char)('0' + tid % 10);
  while ((tid /= 10) > 0);
  fd = cpucycles_open_path("/proc/self/task/", p, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  got = cpucycles_read_some(&fd, stat, sizeof stat);
  close(fd);
  for (k = got - 3; k > 0 && stat[k] != ')'; --k) continue;
  return k > 0 && stat[k + 1] == ' ' && (stat[k + 2] == 'R' || stat[k + 2] == 'D');
#else
  (void)tid;
  return 0;
#endif
}

__attribute__((noinline)) static int over(struct wait *w, long tid)
{
  long long t = cpucycles_os_ns(), cpu = thread_cpu(tid);
  if (!w->end) {
    w->end = t + WAIT_MAX_NS;
    w->cpu_end = cpu + WAIT_MAX_CPU_NS;
  }
  if (!w->idle_end || cpu != w->cpu || thread_going_on(tid)) w->idle_end = t + WAIT_IDLE_NS;
  w->cpu = cpu;
  return t >= w->idle_end || t >= w->end || (cpu >= 0 && cpu >= w->cpu_end);
}

/* The handler of this copy's guard (guard.c's), set when the guard
   makes its handler: whether sa is this copy's, not another copy's. */
static void (*our_handler)(int, siginfo_t *, void *);
static int ours(const struct sigaction *sa)
{
  return our_handler && (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == our_handler;
}

/* Another copy of this library in the process (a plugin that linked the
   archive, a second copy loaded with RTLD_DEEPBIND) has its own guard,
   its own saved handlers and its own on_fault, and nothing in memory that
   both copies can find. What the kernel holds is shared, so each copy
   gives the handler it installs a mark, and a copy that finds a marked
   handler that is not its own knows it for another copy's guard. The
   mark is the handler's whole sa_mask, compared signal by signal: exactly
   SIGXCPU, SIGXFSZ and SIGTTOU, on Linux a thread id spelt in real-time
   signals 35 to 57 (the C libraries keep 32 to 34 for themselves; thread
   ids stay below 2^22), and no other signal; with SA_SIGINFO and
   SA_NODEFER among its flags. Containing the mark is not enough: the JVM,
   Go and many C programs install their fault handlers with every signal
   in sa_mask, which contains it, and a copy that took such a handler for
   another copy's would wait for a turn that never comes. A program's
   handler equal to the mark, flags included, would have to be built for
   it. The signals are blocked only for the first instructions of
   on_fault: pass_on gives a program's handler exactly the mask the
   kernel would have. */
static int mark_signal(int k)
{
  return k == SIGXCPU || k == SIGXFSZ || k == SIGTTOU;
}
#if defined(__linux__) && defined(SYS_gettid) && defined(_NSIG) && _NSIG > 58
#define TID_FIRST 35
#define TID_BITS 23
static long this_thread(void)
{
  return LIBC(syscall)(SYS_gettid);
}
#else
#define TID_FIRST 0
#define TID_BITS 0
static long this_thread(void)
{
  return 0;
}
#endif

/* The thread a copy's mark names (0 where marks name none), or -1 when sa
   is not a copy's handler. Only the kernel's signals 1 to NSIG-1 are
   read: what a C library's sigset_t holds beyond them is not the
   kernel's. */
#define MARK_FLAGS (SA_SIGINFO | SA_NODEFER)
static long mark_of(const struct sigaction *sa)
{
  long named = 0;
  int k;
  if ((sa->sa_flags & MARK_FLAGS) != MARK_FLAGS || !sa->sa_sigaction) return -1;
  for (k = 1; k < NSIG; ++k) {
    int in = LIBC(sigismember)(&sa->sa_mask, k) == 1;
    if (k >= TID_FIRST && k < TID_FIRST + TID_BITS) {
      if (in) named |= 1L << (k - TID_FIRST);
    } else if (in != mark_signal(k)) {
      return -1;
    }
  }
  return TID_BITS && (named == 0 || named >= 1L << 22) ? -1 : named;
}

static int marked(const struct sigaction *sa)
{
  return mark_of(sa) >= 0;
}

/* Installs sa for signal i by an exchange, so that
   cpucycles_copies_saved[i] ends as exactly what it replaced, even when
   another copy installs its own at the same time; before is what a look
   just before found, if one was made. A child forked by another thread
   in mid-selection inherits our handler; what it must give back is what
   its parent saved, so ours is never saved. What was replaced is left
   in exchanged. */
static struct sigaction exchanged;
static int exchange(int i, const struct sigaction *sa, const struct sigaction *before)
{
  int r;
  if (before && !ours(before)) cpucycles_copies_saved[i] = *before;
  settling_here = before ? 1 : BLIND;
  __atomic_store_n(&settling, i + 1, __ATOMIC_SEQ_CST);
  r = LIBC(sigaction)(guarded(i), sa, &exchanged);
  if (r == 0 && !ours(&exchanged)) cpucycles_copies_saved[i] = exchanged;
  __atomic_store_n(&settling, 0, __ATOMIC_RELEASE);
  settling_here = 0;
  return r;
}

/* Gives back the handler saved for signal i, if ours is still the one
   installed. One installed over ours by another copy saved ours, and that
   copy gives ours back at its own end, so it is waited for: leaving now
   would let it install ours after this copy may be gone (dlclose), a
   handler pointing into unmapped code. Copies stack: each waits only for
   the one above it, which waits for nothing below, so the wait ends
   with the upper copy's selection. It is bounded all the same (1 ms
   sleeps; struct wait), for an upper copy stopped by a handler that
   waits on this one's selection. Returns with the handler given back, or left to
   whoever installed one over ours without the mark: the program keeps
   its own.
   sigaction cannot compare and swap, so another copy may install its
   handler between our look and our restore. The restore is an exchange,
   so what it replaced is known: another copy's handler goes back at
   once (it saved ours, which is waited for again), a program's too.
   That instant, with what we saved in place of the other copy's guard,
   is harmless because copies do not probe at the same time (see
   cpucycles_guard_begin): the other copy is then only passing through.
   At the guard's own end (wait), SIGFPE, SIGBUS and SIGSEGV go back by
   the exchange alone, with no look: only the copy holding the turn
   installs those, so ours is there but for a copy that nested over it or
   the program's own sigaction meanwhile, which the exchange's answer
   shows and which is put straight back. SIGILL keeps its look: the
   program's handler there, even for an instant, would let a copy
   waiting for the turn take it over one that is only passing through.
   look: whether the first round looks before its exchange (later rounds
   always do). take_turn, passing through, gives SIGILL back with no
   look; it says why there. */
static const struct timespec ms = { 0, 1000000 };
static void give_back_one(int i, int wait, int look)
{
  struct wait w = { 0, 0, 0, 0 };
  int polls;
  for (polls = 0;; ++polls, look = 1) {
    struct sigaction now, replaced;
    if (look && LIBC(sigaction)(guarded(i), 0, &now) != 0) return;
    if (!look || ours(&now)) {
      if (LIBC(sigaction)(guarded(i), &cpucycles_copies_saved[i], &replaced) != 0 ||
          ours(&replaced))
        return;
      LIBC(sigaction)(guarded(i), &replaced, 0);
      if (!marked(&replaced)) return;
      continue;
    }
    long upper;
    if (!wait || (upper = mark_of(&now)) < 0 || (polls && over(&w, upper))) return;
    nanosleep(&ms, 0);
  }
}

/* The first n handlers installed, last first: SIGILL, the turn (see
   below), goes back last. */
void cpucycles_copies_give_back(int n, int wait)
{
  while (n-- > 0) give_back_one(n, wait, !wait || n == 0);
}

/* Our handler, marked, made once per guard, the same for the four
   signals.
   SA_ONSTACK, from the first instant it is in: a fault in another thread
   runs our handler, then the program's, on that thread's alternate stack
   where it has one. Language runtimes rely on it (Go aborts the process
   when its handler finds itself on a goroutine's small stack, and a
   handler catching a stack overflow has no other stack to run on); the
   handler of a program that asked for no alternate stack may run on one
   the thread set up for its other handlers, which is harmless.
   SA_RESTART: a system call of another thread that a signal passed on to
   a default or ignored disposition interrupts goes on, where the kernel
   restarts calls, as if never interrupted, which without us it would
   not have been; the runtimes' handlers have it too. A plain handler
   without it, sent a signal by somebody in the few microseconds the
   guard is up, sees another thread's interrupted system call restarted
   rather than failing with EINTR. */
static void make_handler(struct sigaction *sa, void (*handler)(int, siginfo_t *, void *))
{
  long tid = guard_thread;
  int k;
  /* The static sa below: what is not set here stays zero. */
  our_handler = handler;
  sa->sa_sigaction = handler;
  sa->sa_flags = MARK_FLAGS | SA_ONSTACK | SA_RESTART;
  LIBC(sigemptyset)(&sa->sa_mask);
  LIBC(sigaddset)(&sa->sa_mask, SIGXCPU);
  LIBC(sigaddset)(&sa->sa_mask, SIGXFSZ);
  LIBC(sigaddset)(&sa->sa_mask, SIGTTOU);
  for (k = 0; k < TID_BITS; ++k)
    if (tid >> k & 1) LIBC(sigaddset)(&sa->sa_mask, TID_FIRST + k);
}

/* What a look found and the handler made from it, for take_turn and
   cpucycles_copies_install in turn: static, as cpucycles_copies_saved is
   (one selection at a time guards, and a first call's stack may be a
   signal handler's 8 KiB), and shared, since every page of ours that a
   first call touches for the first time costs it a page fault. */
static struct sigaction now, sa;

/* Copies take turns, and SIGILL's handler says whose turn it is. Nested
   guards (one copy's installed over another's, each giving back what it
   replaced) would leave an instant, when the lower one gives back the
   program's handler by exchange just as the upper one installed its own,
   in which the program's handler stands in place of a guard whose probe
   may fault. So a copy installs the other three only once its exchange
   for SIGILL replaced no other copy's; one that did puts that back at
   once (its own, meanwhile, passes that copy's faults on to it) and
   waits (1 ms sleeps) until SIGILL holds no copy's, then tries again.
   The holder gives SIGILL back last. A copy whose turn this thread
   interrupted (a first call in a signal handler) cannot finish until
   this one does, so this one nests over it at once, as it does after
   the wait's bound (struct wait) for a holder stopped some other way. Returns 0 with SIGILL
   (guarded(0)) ours. */
static int take_turn(void)
{
  struct wait w = { 0, 0, 0, 0 };
  int polls;
  for (polls = 0;; ++polls) {
    long holder;
    int waited;
    if (LIBC(sigaction)(guarded(0), 0, &now) != 0) return -1;
    holder = ours(&now) ? 0 : mark_of(&now);
    waited = polls && over(&w, holder);
    if (ours(&now)) {
      /* Put back over ours by a copy that expects us to undo it; after
         the wait's bound, kept, nested over what it replaced. */
      if (waited) return 0;
      give_back_one(0, 1, 1);
      continue;
    }
    /* A holder named as this very thread (guard_thread): another copy
       whose selection this thread interrupted (a first call in a signal
       handler), which cannot go on until this call returns. */
    if (holder < 0 || (holder > 0 && holder == guard_thread) || waited) {
      int nest = holder >= 0;
      if (exchange(0, &sa, &now) != 0) return -1;
      if (nest || !marked(&cpucycles_copies_saved[0])) return 0;
      /* Passing through: the copy whose handler this exchange replaced
         goes back by an exchange with no look first. A look could find
         the program's handler that the other copy, at its end, has just
         put in place of ours, and leave; that copy then puts ours back,
         as it does any copy's it replaced, after this one may have taken
         its turn and ended, and ours stays for good. Exchanged instead,
         its handler goes back over the program's, which is put back
         (an unmarked answer), and ours, when that copy puts it back, is
         found by this loop's next look and given back in turn. */
      give_back_one(0, 1, 0);
    }
    nanosleep(&ms, 0);
  }
}


/* The rest of what guard.c calls. */
int cpucycles_copies_install(void (*handler)(int, siginfo_t *, void *), long thread)
{
  int i;
  /* On Linux the mark names the kernel's thread id, which os.h's is;
     elsewhere it names none. */
  guard_thread = TID_BITS && thread > 0 ? thread : this_thread();
  make_handler(&sa, handler);
  /* SIGFPE, SIGBUS and SIGSEGV, once this copy holds the turn: only the
     holder installs these three, so no copy's handler is expected there
     and the look that take_turn makes for SIGILL is spared. */
  for (i = take_turn() == 0 ? 1 : 0; i > 0 && i < NGUARDED; ++i)
    if (exchange(i, &sa, 0) != 0) break;
  return i;
}

int cpucycles_copies_settle(int i)
{
  static const struct timespec pause = { 0, 100000 };
  struct wait w = { 0, 0, 0, 0 };
  int here = settling_here;
  if (here) return here == BLIND && __atomic_load_n(&settling, __ATOMIC_ACQUIRE) == i + 1;
  while (__atomic_load_n(&settling, __ATOMIC_ACQUIRE) == i + 1 && !over(&w, guard_thread))
    nanosleep(&pause, 0);
  return 0;
}
