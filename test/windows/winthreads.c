/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* winthreads.c: a program of a user's, through <cpucycles.h> alone,
   whose Windows threads all make the library's first call at once: each
   waits on one event and is released together. Every thread gets the
   same counter and estimate, and readings that do not go down. Linked
   with the static library here (test/build.mk); make test-windows builds
   the same file against the installed DLL and the installed archive. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <string.h>
#include <cpucycles.h>
#include "check.h"

#define THREADS 8

static HANDLE go;

struct seen {
  long long first, second, persecond;
  const char *impl;
};

static DWORD WINAPI racer(LPVOID arg)
{
  struct seen *s = arg;
  WaitForSingleObject(go, INFINITE);
  s->first = cpucycles();
  s->second = cpucycles();
  s->impl = cpucycles_implementation();
  s->persecond = cpucycles_persecond();
  return 0;
}

int main(void)
{
  HANDLE t[THREADS];
  struct seen s[THREADS];
  int i, started = 0, same = 1, forward = 1;

  memset(s, 0, sizeof s);
  go = CreateEventW(0, TRUE, FALSE, 0);
  CHECK(go != 0, "an event to release the threads together");
  if (!go) return check_done();
  for (i = 0; i < THREADS; ++i) {
    t[i] = CreateThread(0, 0, racer, &s[i], 0, 0);
    started += t[i] != 0;
  }
  CHECK(started == THREADS, "%d threads started", started);
  Sleep(50); /* let them all reach the wait */
  SetEvent(go);
  for (i = 0; i < THREADS; ++i)
    if (t[i]) {
      WaitForSingleObject(t[i], INFINITE);
      CloseHandle(t[i]);
    }
  for (i = 0; i < THREADS; ++i) {
    if (!s[i].impl || !s[0].impl || strcmp(s[i].impl, s[0].impl) != 0 ||
        s[i].persecond != s[0].persecond)
      same = 0;
    if (s[i].second < s[i].first) forward = 0;
  }
  CHECK(same, "every thread was told the same counter (%s) and estimate (%lld)",
        s[0].impl ? s[0].impl : "(none)", s[0].persecond);
  CHECK(forward, "every thread's second reading is not below its first");
  CHECK(s[0].impl && strcmp(s[0].impl, "default-zero") != 0,
        "a counter works (%s), not default-zero", s[0].impl ? s[0].impl : "(none)");
  CHECK(s[0].persecond >= 1000000, "the estimate is a rate (%lld)", s[0].persecond);
  CHECK(cpucycles() > s[0].first || strcmp(s[0].impl, "default-zero") == 0,
        "the main thread's reading comes after the threads' first ones");
  printf("winthreads: %s, %lld cycles per second\n", s[0].impl ? s[0].impl : "(none)",
         s[0].persecond);
  CloseHandle(go);
  return check_done();
}
