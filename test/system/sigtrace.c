/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* sigtrace: run a program under ptrace and report each fault signal the
   kernel sends its first thread, with the faulting address and the
   instruction word found there, before handing the signal on unchanged.
   make test-system runs cpucycles-info under it in a guest whose kernel
   refuses a counter: a program that survives with the fault on record
   shows that the library's guard took the kernel's refusal.

     sigtrace PROGRAM [ARGS...]

   One line on stderr per fault ("sigtrace: signal 4 code 1 addr 0x...
   insn 0x..."); the exit status is the program's (128 + the signal that
   killed it; 125 when tracing itself failed). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int is_fault(int sig)
{
  return sig == SIGILL || sig == SIGFPE || sig == SIGBUS || sig == SIGSEGV;
}

static void report(pid_t pid, int sig)
{
  siginfo_t info;
  long word;

  memset(&info, 0, sizeof info);
  if (ptrace(PTRACE_GETSIGINFO, pid, 0, &info) != 0) {
    fprintf(stderr, "sigtrace: signal %d (no siginfo: %s)\n", sig, strerror(errno));
    return;
  }
  /* The word at a fault the process raised itself (not one sent by kill,
     whose si_addr means nothing); a 64-bit word holds the instruction in
     its low half on little-endian machines, its high half on big-endian. */
  if (info.si_code <= 0) {
    fprintf(stderr, "sigtrace: signal %d code %d sent by pid %ld\n", sig, info.si_code,
            (long)info.si_pid);
    return;
  }
  errno = 0;
  word = ptrace(PTRACE_PEEKTEXT, pid, info.si_addr, 0);
  if (errno != 0)
    fprintf(stderr, "sigtrace: signal %d code %d addr %p insn unreadable\n", sig, info.si_code,
            info.si_addr);
  else
    fprintf(stderr, "sigtrace: signal %d code %d addr %p insn 0x%lx\n", sig, info.si_code,
            info.si_addr, (unsigned long)word);
}

int main(int argc, char **argv)
{
  pid_t child;
  int status, started = 0;

  if (argc < 2) {
    fprintf(stderr, "usage: sigtrace PROGRAM [ARGS...]\n");
    return 125;
  }
  child = fork();
  if (child < 0) {
    perror("sigtrace: fork");
    return 125;
  }
  if (child == 0) {
    if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0) {
      perror("sigtrace: PTRACE_TRACEME");
      _exit(125);
    }
    execvp(argv[1], argv + 1);
    perror("sigtrace: exec");
    _exit(127);
  }
  for (;;) {
    int sig = 0;
    if (waitpid(child, &status, 0) < 0) {
      perror("sigtrace: waitpid");
      return 125;
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) {
      fprintf(stderr, "sigtrace: killed by signal %d\n", WTERMSIG(status));
      return 128 + WTERMSIG(status);
    }
    if (!WIFSTOPPED(status)) continue;
    sig = WSTOPSIG(status);
    /* the stop after a traced exec is ptrace's own, not the program's */
    if (sig == SIGTRAP && !started) {
      started = 1;
      sig = 0;
    } else if (is_fault(sig)) {
      report(child, sig);
    }
    if (ptrace(PTRACE_CONT, child, 0, (void *)(long)sig) != 0) {
      perror("sigtrace: PTRACE_CONT");
      return 125;
    }
  }
}
