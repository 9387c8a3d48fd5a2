/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* guard.c: survive the faults that probing a counter can raise, and only
   those. While the selecting thread probes, a handler of ours takes
   SIGILL, SIGFPE, SIGBUS and SIGSEGV for the whole process, so every
   signal that is not that thread's own fault is passed on exactly as the
   kernel would have delivered it without us:
   - a fault of the probing thread, while armed, jumps back to its probe
     (on_fault);
   - anything else goes to the program's disposition as the kernel would
     have run it, mask and flags included (pass_on);
   - the four are unblocked in the selecting thread (a blocked fault
     kills), so one the program blocks there and that is pending or sent
     meanwhile is held and queued again at the end (held, requeue_held);
   - a child forked meanwhile gets the program's handlers back (the fork
     hook).
   Putting the handler in and giving the program's back is copies.c's
   job: another copy of the library in the process may be doing the same
   at the same instant. */
#define _GNU_SOURCE /* SA_ONSTACK; syscall() for the signal queueing calls */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <errno.h>
#include <sys/syscall.h>
#endif
#include "copies.h"
#include "guard.h"
#include "prebound.h"
#include "sigcode.h"

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
   not come back by itself, so it is raised again or dropped. Inlined
   into its one caller, on_fault, which -Oz leaves undone: a call of its
   own was 32 bytes more of .text (gcc 12, x86-64). */
__attribute__((always_inline)) static inline void pass_on(int sig, siginfo_t *info, void *context,
                                                          int i)
{
  struct sigaction *saved = &cpucycles_copies_saved[i], old = *saved;
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
    memset(saved, 0, sizeof *saved);
    saved->sa_handler = SIG_DFL;
    LIBC(sigemptyset)(&saved->sa_mask);
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

static void requeue_held(void)
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

/* Our handler runs on the probing thread's alternate stack, where it has
   one (SA_ONSTACK, see copies.c's make_handler). Linux switches off a stack set up with
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
   for the exchange's answer (cpucycles_copies_settle). In the thread of
   an exchange made blind, a sent one lands once the exchange has
   returned but maybe before its answer is stored: it is held, as one the
   program blocks would be, and queued again at the guard's end, a few
   microseconds later. */
static void on_fault(int sig, siginfo_t *info, void *context)
{
  int i;
  if (cpucycles_guard_armed && !sent(info)) {
    note_disarmed(context);
    cpucycles_guard_signal = sig;
    siglongjmp(cpucycles_guard_jump, 1);
  }
  for (i = 0; i < NGUARDED; ++i) {
    if (guarded(i) != sig) continue;
    if (cpucycles_copies_settle(i) && sent(info)) {
      held_by = LIBC(getpid)();
      hold(i, info);
      return;
    }
    if (guarding_here && sent(info) && LIBC(sigismember)(&saved_mask, sig)) hold(i, info);
    else pass_on(sig, info, context, i);
  }
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
void cpucycles_guard_in_forked_child(void)
{
  if (__atomic_load_n(&guard_used, __ATOMIC_ACQUIRE) && !guarding_here)
    cpucycles_copies_give_back(NGUARDED, 0);
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
int cpucycles_guard_begin(long thread)
{
  /* Static, as cpucycles_copies_saved is: one selection at a time guards,
     and a first call's stack may be a signal handler's 8 KiB. */
  static sigset_t faults;
  int i;

  LIBC(sigemptyset)(&faults);
  for (i = 0; i < NGUARDED; ++i) LIBC(sigaddset)(&faults, guarded(i));
  if (LIBC(sigprocmask)(SIG_BLOCK, 0, &saved_mask) != 0) return -1;
  mask_changes = take_pending(&saved_mask);
  /* Set before the first handler is installed: a child that gets one
     also gets the flag and cpucycles_copies_saved, since fork copies
     memory after the handlers. */
  guarding_here = 1;
  __atomic_store_n(&guard_used, 1, __ATOMIC_RELEASE);
  i = cpucycles_copies_install(on_fault, thread);
  if (i < NGUARDED || (mask_changes && LIBC(sigprocmask)(SIG_UNBLOCK, &faults, 0) != 0)) {
    cpucycles_copies_give_back(i, 1);
    guarding_here = 0;
    requeue_held();
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
  cpucycles_copies_give_back(NGUARDED, 1);
  guarding_here = 0;
  requeue_held();
}
