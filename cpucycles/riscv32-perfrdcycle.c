/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* riscv32-perfrdcycle: riscv64-perfrdcycle for 32-bit RISC-V, where the
   cycle CSR is read in two halves. */
#if !(defined(__riscv) && __riscv_xlen == 32)
#error "riscv32-perfrdcycle is for 32-bit RISC-V"
#endif
#include "perfrdcycle.h"
