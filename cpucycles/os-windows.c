/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* os-windows.c: what Windows reports (see os.h), through KERNEL32 and
   the registry (ADVAPI32, a DLL of every Windows, loaded in nearly every
   process anyway); what it does not, os-silent.c answers. */
#if !defined(_WIN32)
#error "os-windows.c is for Windows"
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "os.h"

/* The file's name after the folder; root/ProgramData under a test's root,
   which is a path of the tree the test built. */
#define OVERRIDE_NAME "\\cpucyclespersecond"
#define OVERRIDE_MAX 300

/* ProgramData is where Windows keeps machine-wide settings of programs,
   writable by administrators only (by default); the environment names
   it for every process. */
long long cpucycles_os_override(const char *root)
{
  char path[OVERRIDE_MAX];
  const char *dir;
  size_t n;

  if (*root) return cpucycles_small_file(root, "/ProgramData/cpucyclespersecond", cpucycles_parse_hz);
  dir = getenv("ProgramData");
  if (!dir || !*dir) dir = "C:\\ProgramData";
  n = strlen(dir);
  if (n + sizeof OVERRIDE_NAME > sizeof path) return 0;
  memcpy(path, dir, n);
  memcpy(path + n, OVERRIDE_NAME, sizeof OVERRIDE_NAME);
  return cpucycles_small_file("", path, cpucycles_parse_hz);
}

/* The first processor's nominal clock in MHz, as Windows wrote it into
   the registry at boot from the firmware's tables. Describes this
   machine, not a tree: 0 under any root. */
long long cpucycles_os_persecond(const char *root)
{
  HKEY key;
  DWORD mhz = 0, size = sizeof mhz, type = 0;
  LONG err;

  if (*root) return 0;
  if (RegOpenKeyExA(HKEY_LOCAL_MACHINE, "HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0", 0,
                    KEY_QUERY_VALUE, &key) != ERROR_SUCCESS)
    return 0;
  err = RegQueryValueExA(key, "~MHz", 0, &type, (BYTE *)&mhz, &size);
  RegCloseKey(key);
  if (err != ERROR_SUCCESS || type != REG_DWORD || size != sizeof mhz) return 0;
  if ((long long)mhz * 1000000 < CPUCYCLES_PERSECOND_MIN ||
      (long long)mhz * 1000000 > CPUCYCLES_PERSECOND_MAX)
    return 0;
  return (long long)mhz * 1000000;
}

/* WaitOnAddress and WakeByAddressAll (Windows 8 and later, in
   KERNELBASE, reached through the API set api-ms-win-core-synch-l1-2-0,
   which Wine provides too) are Windows' compare-and-wait. They are
   looked up when first needed rather than imported: the DLL then loads
   on Windows 7, where a waiter sleeps a millisecond at a time instead
   (os.h allows it), and needs no API set's import. The lookup is two
   calls that take the loader's lock; a first call made where that lock
   is held (in DllMain) is served by the same thread without waiting. */
typedef BOOL(WINAPI *wait_fn)(volatile VOID *, PVOID, SIZE_T, DWORD);
typedef VOID(WINAPI *wake_fn)(PVOID);
static wait_fn waiting;
static wake_fn waking;
static int looked_up;

static void look_up(void)
{
  HMODULE m;
  if (__atomic_load_n(&looked_up, __ATOMIC_ACQUIRE)) return;
  m = GetModuleHandleW(L"kernelbase.dll");
  if (m) {
    FARPROC w = GetProcAddress(m, "WaitOnAddress"), k = GetProcAddress(m, "WakeByAddressAll");
    /* Through void *: FARPROC is a function pointer of no arguments, and
       gcc warns of a cast between unlike function types. */
    if (w && k) {
      __atomic_store_n(&waiting, (wait_fn)(void *)w, __ATOMIC_RELAXED);
      __atomic_store_n(&waking, (wake_fn)(void *)k, __ATOMIC_RELAXED);
    }
  }
  __atomic_store_n(&looked_up, 1, __ATOMIC_RELEASE);
}

void cpucycles_os_wait(int *addr, int val)
{
  wait_fn w;
  look_up();
  w = __atomic_load_n(&waiting, __ATOMIC_RELAXED);
  if (w) w(addr, &val, sizeof val, 100);
  else Sleep(1);
}

void cpucycles_os_wake(int *addr)
{
  wake_fn k;
  look_up();
  k = __atomic_load_n(&waking, __ATOMIC_RELAXED);
  if (k) k(addr);
}

/* Windows' thread ids are multiples of 4 (handle-table slots), unique
   among the live threads of the machine; a quarter of one keeps that and
   stays below 2^30, as os.h asks, for every id below 2^32. Reading it is
   a load from the thread's own block, no system call. */
int cpucycles_os_thread(void)
{
  DWORD id = GetCurrentThreadId() >> 2;
  return id ? (int)id : 1; /* ids 0 to 3 name no thread of a process */
}

/* No fork: a claim can only have come from a thread of this process. */
int cpucycles_os_thread_alive(int id)
{
  (void)id;
  return 1;
}
