/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* perforder.c: the order in which a hardware cycle event is asked of the
   kernel (perf.c, open_events), against a played kernel and a fake sysfs
   tree: the generic event first, the hybrid PMU lookups only where the
   kernel did not refuse it as absent, and on a hybrid machine one event
   per core PMU in place of the generic one, as before. Every refusal and
   acceptance here is one the real kernel can give (see perf.c). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "internal.h"
#include "perf.h"
#include "tree.h"

#define DEVICES "/sys/bus/event_source/devices/"

/* The played kernel: every call is logged by the PMU type in config bits
   32-63 (0: the generic event); the answer is a descriptor of /dev/null,
   or -1 with refuse_generic (for the generic event) or refuse_typed (for
   one naming a PMU), 0 for accepting. */
#define LOG_MAX 32
static unsigned int logged[LOG_MAX];
static int nlogged, refuse_generic, refuse_typed, bad_attr;

static long play(struct perfabi_attr *attr)
{
  unsigned int pmu = (unsigned int)(attr->config >> PERFABI_PMU_TYPE_SHIFT);
  int refuse = pmu ? refuse_typed : refuse_generic;
  if (attr->type != PERFABI_TYPE_HARDWARE ||
      (attr->config & 0xffffffffULL) != PERFABI_COUNT_HW_CPU_CYCLES)
    bad_attr = 1;
  if (nlogged < LOG_MAX) logged[nlogged++] = pmu;
  if (refuse) {
    errno = refuse;
    return -1;
  }
  return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static int open_fds(void)
{
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  if (!d) return -1;
  while (readdir(d)) ++n;
  closedir(d);
  return n;
}

static void start(struct cpucycles_perf_kernel *k, const char *root, int generic, int typed)
{
  memset(k, 0, sizeof *k);
  k->open = play;
  k->root = root;
  k->ncore = -1;
  nlogged = 0;
  bad_attr = 0;
  refuse_generic = generic;
  refuse_typed = typed;
}

static int open_cycles(struct cpucycles_perf_kernel *k, struct cpucycles_perf *p)
{
  memset(p, 0, sizeof *p);
  p->type = PERFABI_TYPE_HARDWARE;
  p->config = PERFABI_COUNT_HW_CPU_CYCLES;
  p->flags = 0; /* descriptors only: /dev/null has no page to map */
  return cpucycles_perf_open_with(k, p);
}

static void close_all(struct cpucycles_perf *p)
{
  int i;
  for (i = 0; i < p->n; ++i)
    if (p->fd[i] >= 0) close(p->fd[i]);
  p->n = 0;
}

/* A hybrid machine whose kernel refuses a cycle event as absent: one
   call, for the generic event, and no sysfs lookup. Asked the old way
   (lookups first) the one call would have named cpu_core's type. */
static void refused_as_absent(const char *root, int err, const char *what)
{
  struct cpucycles_perf_kernel k;
  struct cpucycles_perf p;
  int before = open_fds();

  start(&k, root, err, err);
  CHECK(open_cycles(&k, &p) != 0 && p.n == 0, "%s: no event opens", what);
  CHECK(nlogged == 1 && logged[0] == 0, "%s: the generic event alone was asked (%d calls, first PMU %u)",
        what, nlogged, nlogged ? logged[0] : 0);
  CHECK(k.ncore == -1, "%s: the hybrid PMUs were not looked up (ncore %d)", what, k.ncore);
  CHECK(cpucycles_perf_open_with(&k, &p) != 0 && nlogged == 1, "%s: asked again, the kernel is not (%d calls)",
        what, nlogged);
  CHECK(open_fds() == before, "%s: nothing left open", what);
}

/* A hybrid machine whose kernel counts cycles: the generic event, then
   one event per core PMU in sysfs order (cpu_core, cpu_atom), the
   generic one closed. A later open (another thread's first read) goes
   straight to the PMUs found, even once the tree has changed. */
static void hybrid_accepts(const char *root)
{
  struct cpucycles_perf_kernel k;
  struct cpucycles_perf p;
  int before = open_fds();

  start(&k, root, 0, 0);
  CHECK(open_cycles(&k, &p) == 0 && p.n == 2, "hybrid: two events (%d)", p.n);
  CHECK(nlogged == 3 && logged[0] == 0 && logged[1] == 4 && logged[2] == 10,
        "hybrid: generic, then cpu_core 4, then cpu_atom 10 (%d calls: %u %u %u)", nlogged, logged[0],
        logged[1], logged[2]);
  CHECK(open_fds() == before + 2, "hybrid: the generic event closed, the two kept (%d more)",
        open_fds() - before);
  close_all(&p);
  tree_put(root, DEVICES "cpu_atom/type", "not a number\n");
  nlogged = 0;
  CHECK(open_cycles(&k, &p) == 0 && p.n == 2 && nlogged == 2 && logged[0] == 4 && logged[1] == 10,
        "hybrid, opened again: cpu_core and cpu_atom at once, no new lookup (%d calls)", nlogged);
  close_all(&p);
  tree_put(root, DEVICES "cpu_atom/type", "10\n");
  CHECK(open_fds() == before, "hybrid: nothing left open once closed");
  CHECK(!bad_attr, "hybrid: every call asked for the cycle event");
}

/* Refused for another reason (perf_event_paranoid: EACCES): the order is
   the old one, lookups and then one event per core PMU, each tried with
   every exclusion. */
static void hybrid_refuses_generic(const char *root)
{
  struct cpucycles_perf_kernel k;
  struct cpucycles_perf p;
  int i, typed = 0;

  start(&k, root, EACCES, 0);
  CHECK(open_cycles(&k, &p) == 0 && p.n == 2 && k.ncore == 2,
        "EACCES on the generic event: the core PMUs still looked up and opened (%d events)", p.n);
  for (i = 0; i < nlogged; ++i) typed += logged[i] != 0;
  CHECK(nlogged == 6 && typed == 2 && logged[4] == 4 && logged[5] == 10,
        "EACCES: four exclusions of the generic event, then cpu_core and cpu_atom (%d calls)", nlogged);
  close_all(&p);
  start(&k, root, EACCES, EACCES);
  CHECK(open_cycles(&k, &p) != 0 && nlogged == 8 && logged[4] == 4 && logged[7] == 4,
        "EACCES everywhere: generic and cpu_core tried with every exclusion, then given up (%d calls)",
        nlogged);
}

/* Not hybrid: the generic event is the event, with no second call. */
static void plain(const char *root)
{
  struct cpucycles_perf_kernel k;
  struct cpucycles_perf p;
  int before = open_fds();

  start(&k, root, 0, 0);
  CHECK(open_cycles(&k, &p) == 0 && p.n == 1 && nlogged == 1 && logged[0] == 0 && k.ncore == 0,
        "not hybrid: the generic event, opened once (%d calls)", nlogged);
  CHECK(open_fds() == before + 1, "not hybrid: its descriptor kept");
  close_all(&p);
  start(&k, root, EACCES, EACCES);
  CHECK(open_cycles(&k, &p) != 0 && nlogged == 4,
        "not hybrid, EACCES: the generic event tried once with each exclusion (%d calls)", nlogged);
}

int main(void)
{
  char root[] = "/tmp/cpucycles-perforder-XXXXXX";
  char plainroot[] = "/tmp/cpucycles-perforder-XXXXXX";

  CHECK(mkdtemp(root) != 0 && mkdtemp(plainroot) != 0, "private roots for fake sysfs trees");
  tree_put(root, DEVICES "cpu_core/type", "4\n");
  tree_put(root, DEVICES "cpu_atom/type", "10\n");
  tree_put(plainroot, DEVICES "cpu/type", "4\n");

  refused_as_absent(root, ENOENT, "ENOENT");
  refused_as_absent(root, ENODEV, "ENODEV");
  refused_as_absent(root, ENOSYS, "ENOSYS");
  hybrid_accepts(root);
  hybrid_refuses_generic(root);
  plain(plainroot);
  tree_remove(root);
  tree_remove(plainroot);
  return check_done();
}
