/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* cpuinfo.c: the streaming reader of /proc/cpuinfo's lines, a pure
   function of what its source hands out (tests and the fuzzer give it
   text cut into pieces of every size). */
#include <string.h>
#include "internal.h"

/* /proc/cpuinfo (os-linux.c opens it), line by line as get() hands out
   pieces of any size, stopping at the first line where `line` finds a
   value: the kernel produces the file as it is read, so the rest is never
   made. Lines longer
   than the buffer carry no rate and are skipped; after CPUINFO_LIMIT bytes
   we give up. Reads of at most 1 KB ask the kernel for little more than
   the first processor's lines (4 KB made it produce two processors' on a
   2-core VM). */
#define CPUINFO_LIMIT (1L << 20)
#define CPUINFO_PIECE 1024
long long cpucycles_cpuinfo_stream(long (*get)(void *, char *, size_t), void *ctx,
                                   long long (*line)(const char *, size_t))
{
  char buf[CPUCYCLES_CPUINFO_LINE];
  size_t have = 0;
  long total = 0;
  int skipping = 0;
  long long v = 0;

  while (!v && total < CPUINFO_LIMIT) {
    size_t room = sizeof buf - have;
    long r = get(ctx, buf + have, room < CPUINFO_PIECE ? room : CPUINFO_PIECE);
    size_t start = 0, i;
    if (r <= 0) {
      /* A last line without newline counts at the end of the file, not
         when an error cut it short. */
      if (r == 0 && have && !skipping) v = line(buf, have);
      break;
    }
    if ((size_t)r > (room < CPUINFO_PIECE ? room : CPUINFO_PIECE)) break; /* a broken source */
    total += r;
    /* What was kept from before holds no newline: scan only the new bytes,
       so a source giving tiny pieces costs linear time, not quadratic. */
    i = have;
    have += (size_t)r;
    for (; i < have && !v; ++i) {
      if (buf[i] != '\n') continue;
      if (!skipping) v = line(buf + start, i - start);
      skipping = 0;
      start = i + 1;
    }
    if (start < have) {
      if (start == 0 && have == sizeof buf) {
        skipping = 1;
        have = 0;
      } else {
        memmove(buf, buf + start, have - start);
        have -= start;
      }
    } else {
      have = 0;
    }
  }
  return v;
}
