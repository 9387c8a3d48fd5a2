/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* guard.c: survive the faults that probing a counter can raise, and only
   those. The handlers are process-wide while the guard is up, so every
   signal that is not the probing thread's own fault is passed on exactly
   as the kernel would have delivered it without us. */
#define _GNU_SOURCE /* SA_ONSTACK; syscall() for the signal queueing calls */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <errno.h>
#include <sys/syscall.h>
#endif
#include "guard.h"
#include "prebound.h"
#include "sigcode.h"

#define NGUARDED 4
/* SIGILL, SIGFPE, SIGBUS, SIGSEGV, in that order, from one constant: an
   array of them would be the only thing a first call reads from the
   library's read-only data, a segment of its own whose first read is a
   page fault (several microseconds in a virtual machine). Signal numbers
   are below 256 on every system. */
#define GUARDED_ALL ((unsigned long)SIGILL | (unsigned long)SIGFPE << 8 | \
                     (unsigned long)SIGBUS << 16 | (unsigned long)SIGSEGV << 24)
#define guarded(i) ((int)(GUARDED_ALL >> 8 * (i) & 0xff))
static struct sigaction saved[NGUARDED];
static sigset_t saved_mask;

sigjmp_buf cpucycles_guard_jump;
CPUCYCLES_THREAD_LOCAL volatile int cpucycles_guard_armed;
CPUCYCLES_THREAD_LOCAL volatile int cpucycles_guard_signal;

/* Sent rather than raised by a faulting instruction, as this system
   numbers its codes (sigcode.h). */
static int sent(const siginfo_t *info)
{
  return info && cpucycles_sigcode_sent(info->si_code);
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
  int k;

  if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) {
    if (!sent(info)) LIBC(sigaction)(sig, &old, 0);
    return;
  }
  if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
    LIBC(sigaction)(sig, &old, 0);
    if (sent(info)) raise(sig);
    return;
  }
  /* The mask the kernel would have given the program's handler: the
     interrupted one (ours adds the mark's signals), its sa_mask, and the
     signal unless SA_NODEFER. On return the kernel restores the
     interrupted one. */
  if (context) during = ((ucontext_t *)context)->uc_sigmask;
  else LIBC(sigprocmask)(SIG_BLOCK, 0, &during);
  for (k = 1; k < NSIG; ++k)
    if (LIBC(sigismember)(&old.sa_mask, k) == 1) LIBC(sigaddset)(&during, k);
  if (!(old.sa_flags & SA_NODEFER)) LIBC(sigaddset)(&during, sig);
  LIBC(sigprocmask)(SIG_SETMASK, &during, 0);
  if (old.sa_flags & SA_RESETHAND) {
    /* Used up: guard_end must give back the default, as the kernel would. */
    memset(&saved[i], 0, sizeof saved[i]);
    saved[i].sa_handler = SIG_DFL;
    LIBC(sigemptyset)(&saved[i].sa_mask);
  }
  if (old.sa_flags & SA_SIGINFO) old.sa_sigaction(sig, info, context);
  else old.sa_handler(sig);
}

/* A guarded signal the program blocks must stay pending through the
   call, but the guard unblocks the four in the selecting thread (a
   blocked fault kills). So one pending before is taken out, with its
   siginfo, and one sent while the guard is up is caught; either is held
   here and queued again at the end, once the mask blocks it again. A
   standard signal is pending at most twice: once for the thread and once
   for the process (slot 0 is the first taken, the thread's if both). */
struct held {
  siginfo_t info;
  int present, shared;
};
static struct held held[NGUARDED][2];
/* The process they were taken from: a child forked in mid-selection by
   the selecting thread (in a signal handler) starts with none pending. */
static pid_t held_by;

/* Sent to one thread (raise, pthread_kill), or the kernel's own fault. */
static int thread_directed(const siginfo_t *info)
{
  return cpucycles_sigcode_thread(info->si_code);
}

/* A sent signal arriving while held: kept like a pending one, unless one
   of the same kind (thread's or process's) is already held, which the
   kernel would have merged it with. */
static void hold(int i, const siginfo_t *info)
{
  struct held *h = held[i];
  int shared = !thread_directed(info), k;
  for (k = 0; k < 2; ++k)
    if (h[k].present && h[k].shared == shared) return;
  k = h[0].present ? 1 : 0;
  h[k].info = *info;
  h[k].shared = shared;
  h[k].present = 1;
}

#if defined(__linux__) && defined(SYS_rt_tgsigqueueinfo) && defined(SYS_rt_sigqueueinfo) && \
    (defined(SYS_rt_sigtimedwait) || defined(SYS_rt_sigtimedwait_time64))

/* Waits zero seconds for a signal of set, as the old and the 64-bit-time
   system calls of 32-bit systems both read them. */
static long wait_zero(const sigset_t *set, siginfo_t *info)
{
  static const long long zero[2] = { 0, 0 };
#ifdef SYS_rt_sigtimedwait_time64
  long got = LIBC(syscall)(SYS_rt_sigtimedwait_time64, set, info, zero, _NSIG / 8);
  if (got >= 0 || CPUCYCLES_ERRNO != ENOSYS) return got;
#endif
#ifdef SYS_rt_sigtimedwait
  return LIBC(syscall)(SYS_rt_sigtimedwait, set, info, zero, _NSIG / 8);
#else
  return -1;
#endif
}

/* One instance of sig if pending, by the system call: glibc's sigtimedwait
   turns a raise's code, SI_TKILL, into SI_USER. */
static int take_one(int sig, siginfo_t *info)
{
  static sigset_t one; /* see cpucycles_guard_begin */
  long got;
  LIBC(sigemptyset)(&one);
  LIBC(sigaddset)(&one, sig);
  do got = wait_zero(&one, info);
  while (got < 0 && CPUCYCLES_ERRNO == EINTR);
  return got == sig;
}

static int take_pending(const sigset_t *blocked)
{
  static sigset_t pending; /* see cpucycles_guard_begin */
  int i, k, any = 0;

  for (i = 0; i < NGUARDED; ++i) {
    held[i][0].present = held[i][1].present = 0;
    any |= LIBC(sigismember)(blocked, guarded(i)) == 1;
  }
  /* None of the four blocked (most programs): none can be pending, and
     none is ever held (on_fault holds only what the program blocks), so
     neither the pending set nor the process id is asked for. */
  if (!any) return 0;
  held_by = LIBC(getpid)();
  if (sigpending(&pending) != 0) return 1;
  for (i = 0; i < NGUARDED; ++i) {
    struct held *h = held[i];
    if (!LIBC(sigismember)(blocked, guarded(i)) || !LIBC(sigismember)(&pending, guarded(i)))
      continue;
    for (k = 0; k < 2 && take_one(guarded(i), &h[k].info); ++k) h[k].present = 1;
    /* Two: the thread's, then the process's. One: its code says which. */
    h[0].shared = h[1].present ? 0 : !thread_directed(&h[0].info);
    h[1].shared = 1;
  }
  return 1;
}

/* Queued again with the siginfo it came with. The kernel lets a thread
   queue any siginfo to itself, but one with a kill's code (SI_USER) to
   the process as a whole only from the main thread; elsewhere a signal
   for the process goes back as a kill, which is the same siginfo when the
   process sent it itself, and otherwise names us as the sender: a signal
   for the process must stay one that any thread may take. */
static void requeue(int i, const struct held *h)
{
  long pid = (long)LIBC(getpid)();
  if (!h->shared)
    LIBC(syscall)(SYS_rt_tgsigqueueinfo, pid, LIBC(syscall)(SYS_gettid), guarded(i), &h->info);
  else if (LIBC(syscall)(SYS_rt_sigqueueinfo, pid, guarded(i), &h->info) != 0)
    kill((pid_t)pid, guarded(i));
}
#else
/* Elsewhere a pending guarded signal is delivered when the guard unblocks
   it, as it was before; one sent meanwhile is sent again, its siginfo
   lost. */
static int take_pending(const sigset_t *blocked)
{
  int i;
  (void)blocked;
  held_by = LIBC(getpid)();
  for (i = 0; i < NGUARDED; ++i) held[i][0].present = held[i][1].present = 0;
  return 1;
}

static void requeue(int i, const struct held *h)
{
  if (h->shared) kill(LIBC(getpid)(), guarded(i));
  else pthread_kill(pthread_self(), guarded(i));
}
#endif

static void put_back(void)
{
  int i, k;
  for (i = 0; i < NGUARDED; ++i)
    for (k = 0; k < 2; ++k) {
      struct held *h = &held[i][k];
      if (!h->present) continue;
      h->present = 0;
      if (LIBC(getpid)() == held_by) requeue(i, h);
    }
}

/* Whether a guard was ever put up in this process, and whether this
   thread is the one guarding now. */
static int guard_used;
static CPUCYCLES_THREAD_LOCAL volatile int guarding_here;

/* An exchange of our handler for signal i is under way (i + 1), by this
   thread if settling_here (BLIND when no look came before it): until it
   returns, saved[i] holds what a look just before it found, which another
   copy may have replaced meanwhile, or after no look, nothing known yet. */
static int settling; /* atomic */
static CPUCYCLES_THREAD_LOCAL volatile int settling_here;
#define BLIND 2
static long guard_thread; /* this_thread() of the guard up now, asked once */

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
   was asked, the waits of a loaded riscv64 guest ran out so.) Counted
   on the OS clock, not in sleeps, which a program's signals cut short;
   asked only once a wait has begun, so a first call that waits for
   nothing reads no clock here. */
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
  char path[48] = "/proc/self/task/", *p = path + 16, digits[24], stat[64];
  int n = 0, fd;
  long got, k;
  if (tid <= 0) return 0;
  do digits[n++] = (char)('0' + tid % 10);
  while ((tid /= 10) > 0);
  while (n > 0) *p++ = digits[--n];
  memcpy(p, "/stat", 6);
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  got = read(fd, stat, sizeof stat);
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

static void on_fault(int sig, siginfo_t *info, void *context);
static int ours(const struct sigaction *sa)
{
  return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == on_fault;
}

/* Our handler runs on the probing thread's alternate stack, where it has
   one (SA_ONSTACK, see make_handler). Linux switches off a stack set up with
   SS_AUTODISARM while a handler runs on it and back on when the handler
   returns, which the jump out of a probe's fault skips: the stack as the
   fault found it is kept here and set again by cpucycles_guard_remask,
   which follows every jump, once the thread is off it. (The kernel's
   flag; the C libraries' headers do not name it.) */
#ifdef __linux__
#define AUTODISARM (1U << 31)
static stack_t disarmed; /* ss_flags 0: none to set again */
#endif
static void note_disarmed(void *context)
{
#ifdef __linux__
  const stack_t *st = context ? &((ucontext_t *)context)->uc_stack : 0;
  if (st && ((unsigned)st->ss_flags & AUTODISARM)) disarmed = *st;
#else
  (void)context;
#endif
}

/* Only a fault the kernel raised in this thread while its probe runs is
   ours. A sent one (kill, tgkill, thr_kill, sigqueue: sigcode.h)
   goes where it would have gone without us: held when the program blocks
   it in this thread, else to the program's disposition. A signal in
   another thread while an exchange for it is settling (it may be another
   copy's probe, which must reach that copy and not a stale answer) waits
   for the exchange's answer, in 100 us sleeps (bounded, see struct wait,
   for a settling thread that is itself stopped waiting on this one). In the
   thread of an exchange made blind, a sent one lands once the exchange
   has returned but maybe before its answer is stored: it is held, as
   one the program blocks would be, and queued again at the guard's end,
   a few microseconds later. */
static void on_fault(int sig, siginfo_t *info, void *context)
{
  static const struct timespec pause = { 0, 100000 };
  struct wait w = { 0, 0, 0, 0 };
  int i;
  if (cpucycles_guard_armed && !sent(info)) {
    note_disarmed(context);
    cpucycles_guard_signal = sig;
    siglongjmp(cpucycles_guard_jump, 1);
  }
  for (i = 0; i < NGUARDED; ++i) {
    if (guarded(i) != sig) continue;
    while (!settling_here && __atomic_load_n(&settling, __ATOMIC_ACQUIRE) == i + 1 &&
           !over(&w, guard_thread))
      nanosleep(&pause, 0);
    if (settling_here == BLIND && sent(info) && __atomic_load_n(&settling, __ATOMIC_ACQUIRE) == i + 1) {
      held_by = LIBC(getpid)();
      hold(i, info);
      return;
    }
    if (guarding_here && sent(info) && LIBC(sigismember)(&saved_mask, sig)) hold(i, info);
    else pass_on(sig, info, context, i);
  }
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

/* Installs sa for signal i by an exchange, so that saved[i] ends as
   exactly what it replaced, even when another copy installs its own at
   the same time; before is what a look just before found, if one was
   made. A child forked by another thread in mid-selection inherits our
   handler; what it must give back is what its parent saved, so ours is
   never saved. What was replaced is left in exchanged. */
static struct sigaction exchanged;
static int exchange(int i, const struct sigaction *sa, const struct sigaction *before)
{
  int r;
  if (before && !ours(before)) saved[i] = *before;
  settling_here = before ? 1 : BLIND;
  __atomic_store_n(&settling, i + 1, __ATOMIC_SEQ_CST);
  r = LIBC(sigaction)(guarded(i), sa, &exchanged);
  if (r == 0 && !ours(&exchanged)) saved[i] = exchanged;
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
   waiting for the turn take it over one that is only passing through. */
static const struct timespec ms = { 0, 1000000 };
static void give_back_one(int i, int wait)
{
  struct wait w = { 0, 0, 0, 0 };
  int polls, look = !wait || i == 0;
  for (polls = 0;; ++polls, look = 1) {
    struct sigaction now, replaced;
    if (look && LIBC(sigaction)(guarded(i), 0, &now) != 0) return;
    if (!look || ours(&now)) {
      if (LIBC(sigaction)(guarded(i), &saved[i], &replaced) != 0 || ours(&replaced)) return;
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
static void give_back(int n, int wait)
{
  while (n-- > 0) give_back_one(n, wait);
}

/* The kernel copies the handlers into a child, but not the selecting
   thread, so a child forked by another thread while the guard is up would
   keep them for good: it gets back what the program had. A flag cleared
   at the guard's end cannot say when that is: fork copies the handlers
   first and memory after, so a child can get our handlers along with a
   flag already cleared. So once any guard has been up, every child looks
   at its four handlers (four system calls, against a fork's thousands of
   instructions). A child of the selecting thread itself (forked in a
   signal handler) goes on with the selection, which gives them back at
   its end. */
static void in_forked_child(void)
{
  if (__atomic_load_n(&guard_used, __ATOMIC_ACQUIRE) && !guarding_here) give_back(NGUARDED, 0);
}

/* Registered at load, not at the first call: that may be made in a signal
   handler, where pthread_atfork is not safe to call. */
__attribute__((constructor)) static void watch_forks(void)
{
  pthread_atfork(0, 0, in_forked_child);
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
static CPUCYCLES_THREAD_LOCAL long known_thread; /* cpucycles_guard_thread_known */

void cpucycles_guard_thread_known(long tid)
{
  known_thread = tid;
}

static void make_handler(struct sigaction *sa)
{
  long tid = guard_thread;
  int k;
  /* The static sa below: what is not set here stays zero. */
  sa->sa_sigaction = on_fault;
  sa->sa_flags = MARK_FLAGS | SA_ONSTACK | SA_RESTART;
  LIBC(sigemptyset)(&sa->sa_mask);
  LIBC(sigaddset)(&sa->sa_mask, SIGXCPU);
  LIBC(sigaddset)(&sa->sa_mask, SIGXFSZ);
  LIBC(sigaddset)(&sa->sa_mask, SIGTTOU);
  for (k = 0; k < TID_BITS; ++k)
    if (tid >> k & 1) LIBC(sigaddset)(&sa->sa_mask, TID_FIRST + k);
}

/* What a look found and the handler made from it, for take_turn and
   cpucycles_guard_begin in turn: static, as saved[] is (one selection at
   a time guards, and a first call's stack may be a signal handler's
   8 KiB), and shared, since every page of ours that a first call touches
   for the first time costs it a page fault. */
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
      give_back_one(0, 1);
      continue;
    }
    /* A holder named as this very thread (guard_thread): another copy
       whose selection this thread interrupted (a first call in a signal
       handler), which cannot go on until this call returns. */
    if (holder < 0 || (holder > 0 && holder == guard_thread) || waited) {
      int nest = holder >= 0;
      if (exchange(0, &sa, &now) != 0) return -1;
      if (nest || !marked(&saved[0])) return 0;
      give_back_one(0, 1);
    }
    nanosleep(&ms, 0);
  }
}

/* Whether the program blocks any of the four (take_pending said so):
   when it blocks none, as most programs, the mask the guard needs is the
   program's own, so neither the unblock nor the final restore is made
   (two system calls of a first call). A fault's jump back leaves the
   handler's mask, which cpucycles_guard_remask puts back to the
   program's in either case. */
static int mask_changes;

/* Installs the handlers once for the whole selection. A blocked SIGSEGV
   raised by a fault kills the process, so the four signals are unblocked
   in this thread until cpucycles_guard_end puts everything back; any of
   them that the program blocks and that is pending, or sent meanwhile,
   is held until then. The order keeps every instant covered: nothing is
   unblocked before our handler, which holds what is sent, is in place,
   and at the end the mask blocks again before the handlers go. */
int cpucycles_guard_begin(void)
{
  /* Static, as saved[] is: one selection at a time guards, and a first
     call's stack may be a signal handler's 8 KiB. */
  static sigset_t faults;
  int i;

  LIBC(sigemptyset)(&faults);
  for (i = 0; i < NGUARDED; ++i) LIBC(sigaddset)(&faults, guarded(i));
  if (LIBC(sigprocmask)(SIG_BLOCK, 0, &saved_mask) != 0) return -1;
  mask_changes = take_pending(&saved_mask);
  /* Set before the first handler is installed: a child that gets one
     also gets the flag and saved[], since fork copies memory after the
     handlers. */
  guarding_here = 1;
  __atomic_store_n(&guard_used, 1, __ATOMIC_RELEASE);
  /* On Linux both are the kernel's thread id (os.h); elsewhere the mark
     names no thread and neither is asked. */
  guard_thread = TID_BITS && known_thread > 0 ? known_thread : this_thread();
  known_thread = 0;
  make_handler(&sa);
  /* SIGFPE, SIGBUS and SIGSEGV, once this copy holds the turn: only the
     holder installs these three, so no copy's handler is expected there
     and the look that take_turn makes for SIGILL is spared. */
  for (i = take_turn() == 0 ? 1 : 0; i > 0 && i < NGUARDED; ++i)
    if (exchange(i, &sa, 0) != 0) break;
  if (i < NGUARDED || (mask_changes && LIBC(sigprocmask)(SIG_UNBLOCK, &faults, 0) != 0)) {
    give_back(i, 1);
    guarding_here = 0;
    put_back();
    return -1;
  }
  cpucycles_guard_armed = 0;
  return 0;
}

void cpucycles_guard_remask(void)
{
  sigset_t mask = saved_mask;
  int i;
#ifdef __linux__
  if (disarmed.ss_flags) {
    LIBC(syscall)(SYS_sigaltstack, &disarmed, 0);
    disarmed.ss_flags = 0;
  }
#endif
  for (i = 0; i < NGUARDED; ++i) sigdelset(&mask, guarded(i));
  LIBC(sigprocmask)(SIG_SETMASK, &mask, 0);
}

void cpucycles_guard_end(void)
{
  cpucycles_guard_armed = 0;
  if (mask_changes) LIBC(sigprocmask)(SIG_SETMASK, &saved_mask, 0);
  give_back(NGUARDED, 1);
  guarding_here = 0;
  put_back();
}
