/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* guard-windows.c: guard.h on Windows. Windows has no signals for a
   faulting instruction; it raises an exception in the faulting thread and
   offers it first to the process's vectored handlers, then to the
   thread's structured handlers. A vectored handler put first in the list
   for the time of the probes sees the probing thread's fault before any
   handler of the program's, and hands everything else on untouched
   (EXCEPTION_CONTINUE_SEARCH): other threads' exceptions, and this
   thread's own outside a probe. */
#if !defined(_WIN32)
#error "guard-windows.c is for Windows"
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <signal.h>
#include "guard.h"

void *cpucycles_guard_jump[5];
CPUCYCLES_THREAD_LOCAL volatile int cpucycles_guard_armed;
CPUCYCLES_THREAD_LOCAL volatile int cpucycles_guard_signal;

/* The probing thread's id, compared before the thread-local flag is
   read: MinGW's gcc keeps __thread variables in emulated TLS, whose
   first access in a thread allocates. Another thread's exception (say
   an access violation in the heap, with the heap's lock held) must not
   make us allocate in it. 0 while no guard is up. */
static volatile DWORD guard_thread;
static PVOID handler;

#if defined(__aarch64__)
/* guard.h: the probe's registers as RtlCaptureContext recorded them, and
   whether the thread is back there from a fault (read once, then clear;
   only the probing thread writes or reads it). */
static CONTEXT probe_context;
void *const cpucycles_guard_context = &probe_context;
static volatile int landed;

int cpucycles_guard_landed(void)
{
  int back = landed;
  landed = 0;
  return back;
}
#endif

/* SIGBUS is not in Windows' <signal.h>; no Windows exception maps to it. */
static int signal_of(DWORD code)
{
  return code == EXCEPTION_ACCESS_VIOLATION ? SIGSEGV : SIGILL;
}

/* Where the faulting thread resumes: at a function of its own, in a fresh
   frame below the one that faulted, which jumps back to the probe's
   setjmp. The handler itself returns to Windows normally, so the
   exception dispatch ends as the OS expects (its locks and references
   released), instead of being abandoned by a jump out of the handler. */
#if !defined(__aarch64__)
__attribute__((noreturn, noinline, used)) static void resume(void)
{
  __builtin_longjmp(cpucycles_guard_jump, 1);
}
#endif

/* Below the faulting stack pointer, by more than any red zone (Windows
   has none on x86-64; 256 bytes cover any other ABI's habits), aligned
   as at a function's entry: 16 bytes, less the return address a call
   would have pushed on x86. */
#define BELOW 256

static LONG CALLBACK on_exception(EXCEPTION_POINTERS *e)
{
  DWORD code = e->ExceptionRecord->ExceptionCode;
  CONTEXT *c = e->ContextRecord;
  if (GetCurrentThreadId() != guard_thread || !cpucycles_guard_armed)
    return EXCEPTION_CONTINUE_SEARCH;
  if (code != EXCEPTION_ILLEGAL_INSTRUCTION && code != EXCEPTION_PRIV_INSTRUCTION &&
      code != EXCEPTION_ACCESS_VIOLATION)
    return EXCEPTION_CONTINUE_SEARCH;
  /* Disarmed at once: a second fault on the way back is not ours. */
  cpucycles_guard_armed = 0;
  cpucycles_guard_signal = signal_of(code);
#if defined(_M_X64) || defined(__x86_64__)
  c->Rsp = ((c->Rsp - BELOW) & ~(DWORD64)15) - 8;
  c->Rip = (DWORD64)(ULONG_PTR)resume;
#elif defined(_M_IX86) || defined(__i386__)
  /* 32-bit Windows chains structured handlers through the stack (fs:0):
     the jump back is safe because no probe registers one between the
     trial and the faulting instruction (gcc's code registers none, and
     the probes fault in their own instructions, not inside Windows). */
  c->Esp = ((c->Esp - BELOW) & ~(DWORD)15) - 4;
  c->Eip = (DWORD)(ULONG_PTR)resume;
#elif defined(_M_ARM64) || defined(__aarch64__)
  /* The probe's registers as RtlCaptureContext recorded them: the thread
     returns from that call once more (guard.h). */
  *c = probe_context;
  landed = 1;
#else
#error "guard-windows.c: no way to resume this CPU's thread is written"
#endif
  return EXCEPTION_CONTINUE_EXECUTION;
}

/* First in the list (first = 1), so that no handler of the program's
   sees, and perhaps ends the process on, the fault of a probe. thread is
   os-windows.c's numbering of threads, not Windows' id, and asking
   Windows is a read of the thread's own block, no system call. */
int cpucycles_guard_begin(long thread)
{
  (void)thread;
  guard_thread = GetCurrentThreadId();
  cpucycles_guard_armed = 0;
  cpucycles_guard_signal = 0;
  handler = AddVectoredExceptionHandler(1, on_exception);
  if (!handler) {
    guard_thread = 0;
    return -1;
  }
  return 0;
}

/* Removed before the guard is said to be down: an exception raised after
   this in any thread never reaches on_exception. */
void cpucycles_guard_end(void)
{
  cpucycles_guard_armed = 0;
  if (handler) RemoveVectoredExceptionHandler(handler);
  handler = 0;
  guard_thread = 0;
}

/* No signal mask on Windows to put back. */
void cpucycles_guard_remask(void)
{
}
