/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* winos.c: os-windows.c's answers (os.h): the administrator's file under
   a test root, the registry's ~MHz as Windows (or Wine) states it, thread
   numbers, and a waiter on WaitOnAddress woken by the one who publishes. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <direct.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "internal.h"
#include "os.h"

static char root[MAX_PATH];

/* root\ProgramData\cpucyclespersecond holding text; -> the answer. */
static long long override_with(const char *text)
{
  char path[MAX_PATH + 64];
  FILE *f;
  snprintf(path, sizeof path, "%s\\ProgramData\\cpucyclespersecond", root);
  f = fopen(path, "wb");
  if (!f) return -2;
  fputs(text, f);
  fclose(f);
  return cpucycles_os_override(root);
}

static int word;
static volatile LONG woken;

static DWORD WINAPI waiter(LPVOID arg)
{
  (void)arg;
  while (__atomic_load_n(&word, __ATOMIC_ACQUIRE) == 0) cpucycles_os_wait(&word, 0);
  InterlockedIncrement(&woken);
  return 0;
}

static volatile int other_id;

static DWORD WINAPI numbered(LPVOID arg)
{
  (void)arg;
  other_id = cpucycles_os_thread();
  return 0;
}

int main(void)
{
  char dir[MAX_PATH + 32];
  HKEY key;
  DWORD mhz = 0, size = sizeof mhz;
  long long os, expect = 0;
  HANDLE t;
  int me;

  GetTempPathA(sizeof root, root);
  snprintf(root + strlen(root), sizeof root - strlen(root), "cpucycles-winos-%lu",
           (unsigned long)GetCurrentProcessId());
  _mkdir(root);
  snprintf(dir, sizeof dir, "%s\\ProgramData", root);
  _mkdir(dir);
  CHECK(cpucycles_os_override(root) == 0, "no file under the root: no figure");
  CHECK(override_with("3000000000\n") == 3000000000LL, "the file's figure in hertz");
  CHECK(override_with("  2500000000  ") == 2500000000LL, "with white space around it");
  CHECK(override_with("fast") == 0, "not a number: passed over");
  CHECK(override_with("5") == 0, "below 1 MHz: passed over");
  snprintf(dir, sizeof dir, "%s\\ProgramData\\cpucyclespersecond", root);
  DeleteFileA(dir);
  snprintf(dir, sizeof dir, "%s\\ProgramData", root);
  RemoveDirectoryA(dir);
  RemoveDirectoryA(root);

  if (RegOpenKeyExA(HKEY_LOCAL_MACHINE, "HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0", 0,
                    KEY_QUERY_VALUE, &key) == ERROR_SUCCESS) {
    if (RegQueryValueExA(key, "~MHz", 0, 0, (BYTE *)&mhz, &size) == ERROR_SUCCESS && mhz >= 1)
      expect = (long long)mhz * 1000000;
    RegCloseKey(key);
  }
  os = cpucycles_os_persecond("");
  if (expect)
    CHECK(os == expect, "the OS's figure is the registry's ~MHz (%lld, ~MHz %lu)", os,
          (unsigned long)mhz);
  else
    SKIP("the registry states no ~MHz here (the OS's figure is %lld)", os);
  CHECK(cpucycles_os_persecond("C:\\somewhere") == 0, "under a test root the OS states nothing");

  me = cpucycles_os_thread();
  t = CreateThread(0, 0, numbered, 0, 0, 0);
  if (t) {
    WaitForSingleObject(t, INFINITE);
    CloseHandle(t);
  }
  CHECK(me > 0 && me < 0x40000000 && me == cpucycles_os_thread(),
        "this thread's number is positive, below 2^30 and stays (%d)", me);
  CHECK(other_id > 0 && other_id < 0x40000000 && other_id != me,
        "another thread's differs (%d)", other_id);

  t = CreateThread(0, 0, waiter, 0, 0, 0);
  Sleep(100); /* long enough for it to be asleep on the word */
  CHECK(woken == 0, "the waiter sleeps while the word holds 0");
  __atomic_store_n(&word, 1, __ATOMIC_RELEASE);
  cpucycles_os_wake(&word);
  CHECK(t && WaitForSingleObject(t, 5000) == WAIT_OBJECT_0 && woken == 1,
        "woken once the word changed");
  if (t) CloseHandle(t);
  return check_done();
}
