/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* riscv64-perfrdcycle: the cycle CSR through rdcycle, made readable by a
   mapped perf_event cycle event. Needs 64-bit RISC-V and Linux 6.6+, whose
   default (/proc/sys/kernel/perf_user_access 1) lets user mode read only
   the counters of events the process has mapped. */
#if !(defined(__riscv) && __riscv_xlen == 64)
#error "riscv64-perfrdcycle is for 64-bit RISC-V"
#endif
#include "perfrdcycle.h"
