/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* pending.c: a fault signal that the program blocked and left pending
   before its first call is still pending and blocked after it, whatever
   its disposition, and arrives later with the siginfo it was sent with.
   Each case is a child process, since only a process's first call
   selects: SIGILL, SIGFPE, SIGBUS, SIGSEGV; sent with kill (to the
   process) or raise (to the thread), or both; left at SIG_DFL or caught. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cpucycles.h>
#include "check.h"
#include "forkable.h"

static const int faults[4] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };
static const char *const names[4] = { "SIGILL", "SIGFPE", "SIGBUS", "SIGSEGV" };

enum how { KILL, RAISE, BOTH };
static const char *const hows[3] = { "kill", "raise", "kill and raise" };

/* What the handler saw, in order of arrival. */
static volatile int seen, seen_code[2], seen_pid[2];

static void on_signal(int sig, siginfo_t *info, void *ctx)
{
  (void)sig;
  (void)ctx;
  if (seen < 2) {
    seen_code[seen] = info->si_code;
    seen_pid[seen] = (int)info->si_pid;
  }
  ++seen;
}

/* Exit status bits of a child. */
#define NOT_PENDING 1        /* no longer pending after the first call */
#define NOT_BLOCKED 2        /* no longer blocked */
#define DISPOSITION 4        /* the disposition changed */
#define WRONG_INFO 8         /* the handler saw another siginfo, or another count */
#define NO_COUNTER 16        /* the first call chose nothing */
#define CANNOT 64            /* this system cannot take a pending signal out */

static void send(int sig, enum how how)
{
  if (how != RAISE) kill(getpid(), sig);
  if (how != KILL) raise(sig);
}

/* Whether the system does what the library relies on: leaves pending
   what `how` sends while blocked, lets sigtimedwait take it out, and takes
   it back with its siginfo from rt_sigqueueinfo (to the process) or
   rt_tgsigqueueinfo (to the thread). Asked in a process of its own:
   qemu-user keeps such a signal in a queue of its own, where the host's
   sigtimedwait does not look, or dies of it. */
static int can_take(int sig, enum how how)
{
  int status = -1;
  pid_t pid = fork();
  if (pid == 0) {
    static const struct timespec zero = { 0, 0 };
    siginfo_t info, again;
    sigset_t one;
    long back;
    int n = 0;
    sigemptyset(&one);
    sigaddset(&one, sig);
    send(sig, how);
    while (n < 3 && sigtimedwait(&one, n ? &again : &info, &zero) == sig) ++n;
    if (n != (how == BOTH ? 2 : 1)) _exit(1);
    if (how == KILL) back = syscall(SYS_rt_sigqueueinfo, (long)getpid(), sig, &info);
    else back = syscall(SYS_rt_tgsigqueueinfo, (long)getpid(), syscall(SYS_gettid), sig, &info);
    if (back != 0 || sigtimedwait(&one, &again, &zero) != sig || again.si_pid != info.si_pid) _exit(2);
    _exit(0);
  }
  if (pid > 0) waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int child(int sig, enum how how, int caught)
{
  struct sigaction sa, before, after;
  sigset_t block, pending, mask;
  int bad = 0, pid = (int)getpid();

  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  if (caught) {
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
  } else {
    sa.sa_handler = SIG_DFL;
  }
  sigaction(sig, &sa, 0);
  sigaction(sig, 0, &before);
  sigemptyset(&block);
  sigaddset(&block, sig);
  pthread_sigmask(SIG_BLOCK, &block, 0);
  if (!can_take(sig, how)) return CANNOT;
  send(sig, how);

  if (strcmp(cpucycles_implementation(), "default-zero") == 0) bad |= NO_COUNTER;

  sigpending(&pending);
  pthread_sigmask(SIG_BLOCK, 0, &mask);
  sigaction(sig, 0, &after);
  if (!sigismember(&pending, sig)) bad |= NOT_PENDING;
  if (!sigismember(&mask, sig)) bad |= NOT_BLOCKED;
  if (memcmp(&before.sa_handler, &after.sa_handler, sizeof after.sa_handler) != 0 ||
      before.sa_flags != after.sa_flags)
    bad |= DISPOSITION;
  if (caught) {
    /* The thread's instance comes first, then the process's. */
    int n = how == BOTH ? 2 : 1, i;
    seen = 0;
    pthread_sigmask(SIG_UNBLOCK, &block, 0);
    if (seen != n) bad |= WRONG_INFO;
    for (i = 0; i < n && i < 2; ++i) {
      int raised = how == RAISE || (how == BOTH && i == 0);
      if (seen_code[i] != (raised ? SI_TKILL : SI_USER) || seen_pid[i] != pid) bad |= WRONG_INFO;
    }
  }
  return bad;
}

/* The same in a thread other than the main one, where the kernel lets a
   process queue a kill's siginfo only to that thread, not to itself. */
static int thread_sig, thread_how, thread_result;
static void *in_thread(void *arg)
{
  thread_result = child(thread_sig, (enum how)thread_how, 1);
  return arg;
}

/* Runs child() in a fresh process (in a second thread if threaded); its
   wait status. */
static int run(int sig, enum how how, int caught, int threaded)
{
  int status = -1;
  pid_t pid;
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    pthread_t t;
    alarm(60);
    if (!threaded) _exit(child(sig, how, caught));
    thread_sig = sig;
    thread_how = how;
    {
      /* Blocked in every thread, so that a kill stays the process's. */
      sigset_t block;
      sigemptyset(&block);
      sigaddset(&block, sig);
      pthread_sigmask(SIG_BLOCK, &block, 0);
    }
    if (pthread_create(&t, 0, in_thread, 0) != 0 || pthread_join(t, 0) != 0) _exit(100);
    _exit(thread_result);
  }
  if (pid > 0) waitpid(pid, &status, 0);
  return status;
}

int main(void)
{
  /* Set by test/run when the tests run under an emulator. */
  const char *emulator = getenv("CPUCYCLES_TEST_EMULATOR");
  int i, how, caught, s;

  if (fork_skipped("pending-signal tests")) return 0;
  for (i = 0; i < 4; ++i)
    for (how = KILL; how <= BOTH; ++how)
      for (caught = 0; caught <= 1; ++caught) {
        if (how == BOTH && !caught) continue;
        if (how != RAISE && emulator) {
          SKIP("%s sent with %s, blocked: under %s, a signal sent to the process may reach the "
               "emulator's own threads, and kill it", names[i], hows[how], emulator);
          continue;
        }
        s = run(faults[i], (enum how)how, caught, 0);
        if (WIFEXITED(s) && WEXITSTATUS(s) == CANNOT) {
          SKIP("%s sent with %s, blocked: this system cannot hold it pending, take it out "
               "and queue it back (an emulator?)", names[i], hows[how]);
          continue;
        }
        CHECK(WIFEXITED(s) && WEXITSTATUS(s) == 0,
              "%s sent with %s, blocked, %s: the program lives through its first call, "
              "the signal still pending and blocked%s (status %#x: %s%s%s%s%s%s)",
              names[i], hows[how], caught ? "caught" : "SIG_DFL",
              caught ? ", then delivered with the code and pid it was sent with" : "", s,
              WIFSIGNALED(s) ? "killed" : "",
              WIFEXITED(s) && (WEXITSTATUS(s) & NOT_PENDING) ? " not pending" : "",
              WIFEXITED(s) && (WEXITSTATUS(s) & NOT_BLOCKED) ? " not blocked" : "",
              WIFEXITED(s) && (WEXITSTATUS(s) & DISPOSITION) ? " disposition changed" : "",
              WIFEXITED(s) && (WEXITSTATUS(s) & WRONG_INFO) ? " other siginfo" : "",
              WIFEXITED(s) && (WEXITSTATUS(s) & NO_COUNTER) ? " no counter" : "");
      }
  for (how = KILL; how <= BOTH; ++how) {
    if (how != RAISE && emulator) {
      SKIP("SIGSEGV sent with %s, blocked, in a second thread: under %s, a signal sent to the "
           "process may reach the emulator's own threads, and kill it", hows[how], emulator);
      continue;
    }
    s = run(SIGSEGV, (enum how)how, 1, 1);
    if (WIFEXITED(s) && WEXITSTATUS(s) == CANNOT) {
      SKIP("SIGSEGV sent with %s, blocked, in a second thread: this system cannot hold it pending, "
           "take it out and queue it back (an emulator?)", hows[how]);
      continue;
    }
    CHECK(WIFEXITED(s) && WEXITSTATUS(s) == 0,
          "SIGSEGV sent with %s, blocked, caught, first call in a second thread: still pending "
          "and blocked after it, then delivered as sent (status %#x)", hows[how], s);
  }
  return check_done();
}
