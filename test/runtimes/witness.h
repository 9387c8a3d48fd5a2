/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* witness.h: what a runtime's program (Java through JNI, Go through cgo,
   Python through ctypes, and the plain C program) calls around the
   process's first call of the library. The witness reads the runtime's
   handlers of the four fault signals from the kernel before and after,
   and times the first call of each thread that makes one. */
#ifndef WITNESS_H
#define WITNESS_H

/* Before the first call: the handlers as the kernel holds them, and the
   number of threads that will make it (each through witness_call). */
void witness_before(int callers);

/* This thread's first call of cpucycles(): waits until all callers are
   here when there are several, then times the call (CLOCK_MONOTONIC,
   nanoseconds, returned). */
long long witness_call(void);

/* After every caller returned: the handlers again. */
void witness_after(void);

/* The findings, one line each, without a final newline:
     firstcall NS CALLS IMPLEMENTATION  (the longest call)
     handlers same|differ SIG=HANDLER/FLAGS/MASK ...  (as after; differ
       names what changed)
   The string is the witness's own; it lives as long as the process. */
const char *witness_report(void);

#endif
