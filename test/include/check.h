/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* check.h: one line per assertion, "ok ..." or "FAIL ...", counted by
   test/run, or "skip ..." for one that could not run. A program that dies
   mid-way is counted as a failure there. */
#ifndef CHECK_H
#define CHECK_H
#include <stdio.h>
#include <stdlib.h>

static int check_failures;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    int check_ok_ = (cond) ? 1 : 0;                        \
    printf("%s ", check_ok_ ? "ok" : "FAIL");              \
    printf(__VA_ARGS__);                                   \
    if (!check_ok_) printf(" [%s:%d: %s]", __FILE__, __LINE__, #cond); \
    printf("\n");                                          \
    fflush(stdout);                                        \
    check_failures += !check_ok_;                          \
  } while (0)

/* A test that cannot run here (not root, no namespaces, an emulator):
   said so, and counted as neither passed nor failed. */
#define SKIP(...)                                          \
  do {                                                     \
    printf("skip ");                                       \
    printf(__VA_ARGS__);                                   \
    printf("\n");                                          \
    fflush(stdout);                                        \
  } while (0)

/* How many times to repeat a costly test: `dflt`, or fewer where the
   environment says so (make test-sanitize does, under ThreadSanitizer). */
static inline int check_reps(int dflt)
{
  const char *e = getenv("CPUCYCLES_TEST_REPS");
  int n = e ? atoi(e) : 0;
  return n > 0 && n < dflt ? n : dflt;
}

/* A test's exit status, which ends its main: `return check_done();`,
   1 when any check failed. */
static inline int check_done(void)
{
  return check_failures ? 1 : 0;
}
#endif
