/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* start.c: a program that starts and exits, for startup.c to time. Built
   three times: linked with the library (WITH_LIBRARY), which it names but
   never calls, as a program does that calls it only in some modes; with
   an empty library (WITH_EMPTY, empty.c); and with neither. The
   differences are what loading the library, and any library, cost a
   program that never uses them. */
#ifdef WITH_LIBRARY
#include <cpucycles.h>
#endif
#ifdef WITH_EMPTY
int cpucycles_bench_empty(void);
#endif

int main(int argc, char **argv)
{
  (void)argv;
#ifdef WITH_LIBRARY
  /* Never true when startup.c runs it; the reference keeps the library
     linked even under --as-needed. */
  if (argc > 1000) return (int)(cpucycles() & 1);
#endif
#ifdef WITH_EMPTY
  if (argc > 1000) return cpucycles_bench_empty();
#endif
  return argc > 1000;
}
