/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* sigcode.c: sigcode.h's reading of this system's signal codes. The
   names of <signal.h> first, as the system defines them; then the codes
   that this kernel really gives: a signal sent with kill (the process),
   with raise and pthread_kill (a thread), and a real fault, each of which
   the guard must take for what it is. */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "check.h"
#include "sigcode.h"

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

static void sent_by_name(const char *name, int code)
{
  CHECK(cpucycles_sigcode_sent(code), "%s (%d) is a sent code", name, code);
}

static void fault_by_name(const char *name, int code)
{
  CHECK(!cpucycles_sigcode_sent(code) && cpucycles_sigcode_thread(code),
        "%s (%d) is a fault's code, its thread's", name, code);
}

#define SENT(name) sent_by_name(#name, name)
#define FAULT(name) fault_by_name(#name, name)

static void names(void)
{
  SENT(SI_USER);
  SENT(SI_QUEUE);
  SENT(SI_TIMER);
  SENT(SI_ASYNCIO);
  SENT(SI_MESGQ);
  CHECK(!cpucycles_sigcode_thread(SI_USER) && !cpucycles_sigcode_thread(SI_QUEUE),
        "SI_USER and SI_QUEUE go to the process, not one thread");
#ifdef SI_TKILL
  SENT(SI_TKILL);
  CHECK(cpucycles_sigcode_thread(SI_TKILL), "SI_TKILL goes to one thread");
#endif
#ifdef __FreeBSD__
  SENT(SI_NOINFO);
  SENT(SI_KERNEL);
  SENT(SI_LWP);
  CHECK(cpucycles_sigcode_thread(SI_LWP), "SI_LWP (thr_kill) goes to one thread");
  FAULT(BUS_OOMERR);
  FAULT(SEGV_PKUERR);
#endif
#if defined(__linux__) && defined(SI_KERNEL)
  /* x86 Linux's SIGSEGV of a general protection fault (RDPMC refused) */
  FAULT(SI_KERNEL);
#endif
  FAULT(ILL_ILLOPC);
  FAULT(ILL_ILLOPN);
  FAULT(ILL_ILLADR);
  FAULT(ILL_ILLTRP);
  FAULT(ILL_PRVOPC);
  FAULT(ILL_PRVREG);
  FAULT(ILL_COPROC);
  FAULT(ILL_BADSTK);
  FAULT(SEGV_MAPERR);
  FAULT(SEGV_ACCERR);
  FAULT(BUS_ADRALN);
  FAULT(BUS_ADRERR);
  FAULT(BUS_OBJERR);
  FAULT(FPE_INTDIV);
  FAULT(FPE_INTOVF);
  FAULT(FPE_FLTDIV);
  FAULT(FPE_FLTOVF);
  FAULT(FPE_FLTUND);
  FAULT(FPE_FLTRES);
  FAULT(FPE_FLTINV);
  FAULT(FPE_FLTSUB);
}

/* What the handler saw of the last SIGSEGV. */
static volatile int seen_code, seen;
static sigjmp_buf back;

static void on_segv(int sig, siginfo_t *info, void *ctx)
{
  (void)sig;
  (void)ctx;
  seen_code = info->si_code;
  seen = 1;
  if (info->si_addr && !cpucycles_sigcode_sent(info->si_code)) siglongjmp(back, 1);
}

static int code_of(const char *how, void (*deliver)(void))
{
  seen = 0;
  deliver();
  if (!seen) SKIP("%s: no SIGSEGV arrived", how);
  return seen ? seen_code : -1;
}

static void by_kill(void) { kill(getpid(), SIGSEGV); }
static void by_raise(void) { raise(SIGSEGV); }
static void by_pthread_kill(void) { pthread_kill(pthread_self(), SIGSEGV); }

static volatile char *page;
static void by_fault(void)
{
  if (!sigsetjmp(back, 1)) (void)*page;
}

#if defined(__linux__) || defined(__FreeBSD__)
#define THREAD_CODES 1
#else
#define THREAD_CODES 0
#endif

static void kernel(void)
{
  struct sigaction sa, old;
  int code;

  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &old);

  code = code_of("kill", by_kill);
  if (code != -1)
    CHECK(cpucycles_sigcode_sent(code) && !cpucycles_sigcode_thread(code),
          "kill's SIGSEGV (code %d) is sent, to the process", code);
  /* Linux's raise and pthread_kill are tgkill (SI_TKILL), FreeBSD's
     thr_kill (SI_LWP): sent to this thread alone. */
  code = code_of("raise", by_raise);
  if (code != -1)
    CHECK(cpucycles_sigcode_sent(code) && (!THREAD_CODES || cpucycles_sigcode_thread(code)),
          "raise's SIGSEGV (code %d) is sent%s", code, THREAD_CODES ? ", to this thread" : "");
  code = code_of("pthread_kill", by_pthread_kill);
  if (code != -1)
    CHECK(cpucycles_sigcode_sent(code) && (!THREAD_CODES || cpucycles_sigcode_thread(code)),
          "pthread_kill's SIGSEGV (code %d) is sent%s", code,
          THREAD_CODES ? ", to this thread" : "");

  page = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) {
    SKIP("mmap of a page to fault on refused");
  } else {
    code = code_of("a fault", by_fault);
    if (code != -1)
      CHECK(!cpucycles_sigcode_sent(code) && cpucycles_sigcode_thread(code),
            "a read of a PROT_NONE page raises a fault's code (%d), its thread's", code);
    munmap((void *)page, 4096);
  }
  sigaction(SIGSEGV, &old, 0);
}

int main(void)
{
  names();
  kernel();
  return check_done();
}
