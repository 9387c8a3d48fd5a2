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
#include <sys/wait.h>
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
  if (how != RAISE) kill(pid, sig);
  if (how != KILL) raise(sig);

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
  int i, how, caught, s;

  SKIP_UNLESS_FORK_WORKS("pending-signal tests");
  for (i = 0; i < 4; ++i)
    for (how = KILL; how <= BOTH; ++how)
      for (caught = 0; caught <= 1; ++caught) {
        if (how == BOTH && !caught) continue;
        s = run(faults[i], (enum how)how, caught, 0);
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
    s = run(SIGSEGV, (enum how)how, 1, 1);
    CHECK(WIFEXITED(s) && WEXITSTATUS(s) == 0,
          "SIGSEGV sent with %s, blocked, caught, first call in a second thread: still pending "
          "and blocked after it, then delivered as sent (status %#x)", hows[how], s);
  }
  CHECK_DONE();
}
