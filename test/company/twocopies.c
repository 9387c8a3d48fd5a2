/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* twocopies.c: two copies of the library in one process, the program's
   shared one and a plugin's own (test/company/plugin.c), both making their
   first call at once. Afterwards the program's fault handlers are the
   ones in place, each copy works, and once the plugin is unloaded a real
   fault reaches the program's handler, not code that is gone. Each try
   is a fresh child, with the plugin loaded there. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cpucycles.h>
#include "barrier.h"
#include "check.h"
#include "child.h"
#include "forkable.h"

#define REPS check_reps(300)

static const int faults[4] = { SIGILL, SIGFPE, SIGBUS, SIGSEGV };
static char plugin_path[PATH_MAX];
static struct barrier start;
static int (*plugin_first_call)(void);
static volatile int plugin_ok, program_ok, program_faults;
static sigjmp_buf recover;

static void program_handler(int sig, siginfo_t *info, void *ctx)
{
  (void)info;
  (void)ctx;
  if (sig == SIGSEGV) ++program_faults;
  siglongjmp(recover, 1);
}

static int handlers_are_programs(void)
{
  int i;
  for (i = 0; i < 4; ++i) {
    struct sigaction now;
    if (sigaction(faults[i], 0, &now) != 0) return 0;
    if (!(now.sa_flags & SA_SIGINFO) || now.sa_sigaction != program_handler) return 0;
  }
  return 1;
}

static void *in_plugin(void *arg)
{
  (void)arg;
  barrier_wait(&start);
  plugin_ok = plugin_first_call();
  return 0;
}

static void *in_program(void *arg)
{
  (void)arg;
  barrier_wait(&start);
  program_ok = cpucycles_implementation() && cpucycles() <= cpucycles();
  return 0;
}

/* 8 unless a fault on an inaccessible page reaches the program's handler. */
static int real_fault(void)
{
  volatile int *page = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return 16;
  if (!sigsetjmp(recover, 1)) *page = 1;
  return program_faults == 1 ? 0 : 8;
}

/* Exit bits: 1 the plugin's copy or the program's did not work, 2 not
   the program's handlers after both first calls, 4 not after the
   plugin's unloading, 8 a real fault did not reach the program's
   handler, 16 setup trouble. A fault into unloaded code kills the
   child instead. */
static int one(void)
{
  struct sigaction sa;
  pthread_t t1, t2;
  void *plugin;
  int i, bad = 0;

  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = program_handler;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  for (i = 0; i < 4; ++i)
    if (sigaction(faults[i], &sa, 0) != 0) return 16;
  plugin = dlopen(plugin_path, RTLD_NOW | RTLD_LOCAL);
  if (!plugin) return 16;
  plugin_first_call = (int (*)(void))dlsym(plugin, "plugin_first_call");
  if (!plugin_first_call || barrier_init(&start, 2) != 0) return 16;
  if (pthread_create(&t1, 0, in_plugin, 0) != 0 || pthread_create(&t2, 0, in_program, 0) != 0)
    return 16;
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (!plugin_ok || !program_ok) bad |= 1;
  if (!handlers_are_programs()) bad |= 2;
  dlclose(plugin);
  if (!handlers_are_programs()) bad |= 4;
  return bad | real_fault();
}

int main(int argc, char **argv)
{
  char self[PATH_MAX];
  int r, failed = 0, bits = 0, died = 0, st = 0;
  (void)argc;
  snprintf(self, sizeof self, "%s", argv[0]);
  snprintf(plugin_path, sizeof plugin_path, "%s/../lib/plugin.so", dirname(self));
  if (access(plugin_path, R_OK) != 0) {
    SKIP("twocopies: no %s next to the tests (a guest that copied test/bin alone)", plugin_path);
    return 0;
  }
  SKIP_UNLESS_FORK_WORKS("twocopies");
  for (r = 0; r < REPS; ++r) {
    int status = held_child(one, 20);
    if (status == 0) continue;
    ++failed;
    if (status < 256) bits |= status;
    else died = 1, st = status - 256;
  }
  CHECK(!(bits & 16), "the plugin with its own copy loads and runs (%d tries)", REPS);
  CHECK(!(bits & 1), "both copies work after their first calls at once");
  CHECK(!(bits & 2), "the program's four fault handlers are in place after both first calls");
  CHECK(!(bits & 4), "and after the plugin is unloaded");
  CHECK(!died && !(bits & 8), "a real fault after the unloading reaches the program's handler "
        "(%d of %d tries failed, bits %#x, a child died: %d, of signal %d)", failed, REPS, bits, died, st);
  CHECK_DONE();
}
