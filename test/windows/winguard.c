/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* winguard.c: the guard on Windows (guard-windows.c) catches the probing
   thread's own illegal instruction, privileged instruction and access
   violation while armed, and nothing else: the same exception in another
   thread, or in the probing thread while disarmed or after the guard is
   down, reaches the program's own vectored handler, installed before the
   guard as a program's would be. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <signal.h>
#include <stdint.h>
#include "check.h"
#include "guard.h"
#include "internal.h"

static volatile LONG program_saw;
static volatile DWORD program_thread;

/* The program's own handler: it handles its illegal instructions by
   stepping over them, and counts them. */
static LONG CALLBACK program_handler(EXCEPTION_POINTERS *e)
{
  if (e->ExceptionRecord->ExceptionCode != EXCEPTION_ILLEGAL_INSTRUCTION)
    return EXCEPTION_CONTINUE_SEARCH;
  InterlockedIncrement(&program_saw);
  program_thread = GetCurrentThreadId();
#if defined(__x86_64__)
  e->ContextRecord->Rip += 2; /* ud2 */
#elif defined(__i386__)
  e->ContextRecord->Eip += 2;
#elif defined(__aarch64__)
  e->ContextRecord->Pc += 4; /* udf */
#endif
  return EXCEPTION_CONTINUE_EXECUTION;
}

__attribute__((noinline)) static void illegal(void)
{
#if defined(__x86_64__) || defined(__i386__)
  __asm__ __volatile__("ud2" ::: "memory");
#elif defined(__aarch64__)
  __asm__ __volatile__("udf #0" ::: "memory");
#endif
}

#if defined(__x86_64__) || defined(__i386__)
/* hlt: allowed in ring 0 only, so a privileged instruction here. */
__attribute__((noinline)) static void privileged(void)
{
  __asm__ __volatile__("hlt" ::: "memory");
}
#endif

/* The address through a volatile, so that gcc cannot see it is 16 (its
   -Warray-bounds would). */
static volatile uintptr_t unmapped = 16;

__attribute__((noinline)) static void bad_read(void)
{
  volatile int *p = (volatile int *)unmapped;
  (void)*p;
}

/* 1 when fn, run armed, faulted and the guard jumped back with sig. */
static int caught(void (*fn)(void), int sig)
{
  volatile int landed = 0;
  cpucycles_guard_signal = 0;
  if (CPUCYCLES_GUARD_SETJMP()) {
    cpucycles_guard_armed = 0;
    cpucycles_guard_remask();
    landed = 1;
  } else {
    cpucycles_guard_armed = 1;
    fn();
    cpucycles_guard_armed = 0;
  }
  return landed && cpucycles_guard_signal == sig;
}

static DWORD WINAPI other(LPVOID arg)
{
  (void)arg;
  illegal();
  return 0;
}

int main(void)
{
  PVOID mine = AddVectoredExceptionHandler(0, program_handler);
  HANDLE t;
  volatile int landed = 0;

  CHECK(mine != 0, "the program's own vectored handler is installed");
  CHECK(cpucycles_guard_begin(0) == 0, "the guard goes up");
  CHECK(caught(illegal, SIGILL) && program_saw == 0,
        "an illegal instruction in the armed thread comes back as SIGILL, unseen by the program");
#if defined(__x86_64__) || defined(__i386__)
  CHECK(caught(privileged, SIGILL) && program_saw == 0,
        "a privileged instruction (hlt) in the armed thread comes back as SIGILL");
#endif
  CHECK(caught(bad_read, SIGSEGV) && program_saw == 0,
        "an access violation in the armed thread comes back as SIGSEGV");

  /* Armed here the whole time another thread faults. */
  if (CPUCYCLES_GUARD_SETJMP()) {
    cpucycles_guard_armed = 0;
    landed = 1;
  } else {
    cpucycles_guard_armed = 1;
    t = CreateThread(0, 0, other, 0, 0, 0);
    if (t) {
      WaitForSingleObject(t, INFINITE);
      CloseHandle(t);
    }
    cpucycles_guard_armed = 0;
  }
  CHECK(!landed && program_saw == 1 && program_thread != GetCurrentThreadId(),
        "another thread's illegal instruction, while this one is armed, reaches the program's "
        "handler in that thread (%ld seen)", (long)program_saw);

  illegal();
  CHECK(program_saw == 2 && program_thread == GetCurrentThreadId(),
        "the probing thread's own illegal instruction while disarmed reaches the program's "
        "handler (%ld seen)", (long)program_saw);
  cpucycles_guard_end();
  illegal();
  CHECK(program_saw == 3, "after the guard is down, the program's handler sees the next one");
  RemoveVectoredExceptionHandler(mine);
  return check_done();
}
