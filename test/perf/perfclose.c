/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* perfclose.c: every perf counter compiled here gives back what it took.
   Where perf_event cannot give a cycle event (this development VM has no
   PMU) setup must fail with nothing left open; where it can, release must
   close every descriptor and unmap every page. Also the hybrid PMU types
   read from a fake sysfs tree. (perfown.c opens and closes a software
   event through the same code.) */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "cycles.h"
#include "internal.h"
#include "perfpage.h"
#include "tree.h"

/* The open descriptors and the perf mappings, as one comparable string. */
static void snapshot(char *out, size_t size)
{
  DIR *d = opendir("/proc/self/fd");
  FILE *maps = fopen("/proc/self/maps", "r");
  struct dirent *e;
  char line[512];
  size_t used = 0;

  out[0] = 0;
  while (d && (e = readdir(d)))
    used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s ", e->d_name);
  if (d) closedir(d);
  while (maps && fgets(line, sizeof line, maps))
    if (strstr(line, "perf_event")) {
      line[strcspn(line, " ")] = 0;
      used += (size_t)snprintf(out + used, used < size ? size - used : 0, "map:%s ", line);
    }
  if (maps) fclose(maps);
}

static int is_perf(const char *name)
{
  return strstr(name, "-perf") != 0;
}

static void each_counter(void)
{
  char before[4096], after[4096];
  int i, seen = 0;

  for (i = 0; i < cpucycles_noptions; ++i) {
    const struct cpucycles_option *o = &cpucycles_options[i];
    struct cpucycles_setup s;
    int r;
    if (!is_perf(o->name)) continue;
    ++seen;
    memset(&s, 0, sizeof s);
    snapshot(before, sizeof before);
    r = o->counter->setup(&s);
    if (r == 0 && o->counter->release) o->counter->release();
    snapshot(after, sizeof after);
    CHECK(strcmp(before, after) == 0, "%s: %s, nothing left open (before: %s after: %s)", o->name,
          r == 0 ? "set up and released" : "setup refused", before, after);
    if (r != 0) {
      memset(&s, 0, sizeof s);
      CHECK(o->counter->setup(&s) != 0, "%s: refuses again on a second try", o->name);
      snapshot(after, sizeof after);
      CHECK(strcmp(before, after) == 0, "%s: still nothing left open", o->name);
    }
  }
  CHECK(seen > 0, "perf counters compiled for this host: %d", seen);
}

/* The whole selection over the perf counters: those not chosen are
   released by it, the chosen one (if any) by us. */
static void selection(void)
{
  struct cpucycles_option perf[16];
  struct cpucycles_trial trials[16];
  char before[4096], after[4096];
  int i, n = 0, best;

  for (i = 0; i < cpucycles_noptions && n < 16; ++i)
    if (is_perf(cpucycles_options[i].name)) perf[n++] = cpucycles_options[i];
  snapshot(before, sizeof before);
  best = cpucycles_select(perf, n, 2000000000LL, 0, trials);
  if (best >= 0 && perf[best].counter->release) perf[best].counter->release();
  snapshot(after, sizeof after);
  CHECK(strcmp(before, after) == 0, "selection over the perf counters (chose %s) leaves nothing open",
        best >= 0 ? perf[best].name : "none");
}

static void core_types(void)
{
  char root[] = "/tmp/cpucycles-perfclose-XXXXXX";
  unsigned int t[CPUCYCLES_PERF_MAX] = { 0, 0 };

  CHECK(mkdtemp(root) != 0, "a private root for a fake sysfs");
  CHECK(cpucycles_perf_core_types(root, t) == 0, "no core PMUs: not hybrid");
  tree_put(root, "/sys/bus/event_source/devices/cpu/type", "4\n");
  CHECK(cpucycles_perf_core_types(root, t) == 0, "only the plain cpu PMU: not hybrid");
  tree_put(root, "/sys/bus/event_source/devices/cpu_core/type", "4\n");
  tree_put(root, "/sys/bus/event_source/devices/cpu_atom/type", "10\n");
  CHECK(cpucycles_perf_core_types(root, t) == 2 && t[0] == 4 && t[1] == 10,
        "hybrid: cpu_core 4 and cpu_atom 10 (%u %u)", t[0], t[1]);
  tree_put(root, "/sys/bus/event_source/devices/cpu_atom/type", "ten\n");
  CHECK(cpucycles_perf_core_types(root, t) == 1 && t[0] == 4, "a type that is not a number is passed over");
  tree_put(root, "/sys/bus/event_source/devices/cpu_atom/type", "4294967296\n");
  CHECK(cpucycles_perf_core_types(root, t) == 1, "a type beyond 32 bits is passed over");
  tree_put(root, "/sys/bus/event_source/devices/cpu_atom/type", "");
  CHECK(cpucycles_perf_core_types(root, t) == 1, "an empty type file is passed over");
  tree_put(root, "/sys/bus/event_source/devices/cpu_atom/type", "8\n");
  tree_put(root, "/sys/bus/event_source/devices/cpu_core/type", "\n");
  CHECK(cpucycles_perf_core_types(root, t) == 1 && t[0] == 8, "only cpu_atom readable: its type (%u)", t[0]);
  tree_remove(root);
}

/* amd64-pmcff skips the rdpmc files once perf_event has refused a
   hardware cycle event as absent (perf.h): they are the core PMU's, which
   the kernel then has not registered. Checked against this kernel's own
   answer (ENOENT or ENODEV; ENOSYS may be an emulator's, over the host's
   sysfs), for x86, whose files they are. */
static void rdpmc_files(void)
{
#if defined(__x86_64__) || defined(__i386__)
  int fd = cycles_open(0, 0);
  if (fd >= 0) close(fd);
  if (fd >= 0 || (errno != ENOENT && errno != ENODEV)) {
    SKIP("perf_event did not refuse a hardware cycle event as absent here");
    return;
  }
  CHECK(cpucycles_perf_no_hardware(), "the library heard the same answer");
  CHECK(access("/sys/devices/cpu/rdpmc", F_OK) != 0 && access("/sys/devices/cpu_core/rdpmc", F_OK) != 0,
        "no hardware cycle event: no core PMU's rdpmc file either");
#else
  SKIP("the rdpmc files are x86's");
#endif
}

int main(void)
{
  each_counter();
  rdpmc_files();
  selection();
  core_types();
  return check_done();
}
