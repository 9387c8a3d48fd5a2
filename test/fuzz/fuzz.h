/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* fuzz.h: what every fuzz target checks besides not crashing. A broken
   property aborts, which libFuzzer reports as a crash with its input. */
#ifndef FUZZ_H
#define FUZZ_H
#include <stdint.h>
#include <stdlib.h>
#include "internal.h"

#define MUST(cond) do { if (!(cond)) abort(); } while (0)

/* Every parser answers 0 or a figure in the valid range, never between. */
static inline void must_be_rate(long long v)
{
  MUST(v == 0 || (v >= CPUCYCLES_PERSECOND_MIN && v <= CPUCYCLES_PERSECOND_MAX));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
