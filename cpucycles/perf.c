/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* perf.c: opening, mapping and closing the perf_event cycle events that
   the perf counters rely on (see perf.h). Compiled for Linux only
   (scripts-build/sources.py). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "internal.h"
#include "perfpage.h"
#include "prebound.h"

/* What perf_event said and where this machine's sysfs is (perf.h): the
   real kernel, asked once per process and kept, since three counters
   open cycle events during one selection and the answers do not change. */
static long sys_perf_open(struct perfabi_attr *attr)
{
  return LIBC(syscall)(SYS_perf_event_open, attr, 0, -1, -1, PERFABI_FLAG_FD_CLOEXEC);
}
static struct cpucycles_perf_kernel machine = { sys_perf_open, "", 0, 0, -1, { 0, 0 } };

int cpucycles_perf_no_hardware(void)
{
  return machine.no_perf ? machine.no_perf : machine.no_hardware;
}

int cpucycles_perf_refused(const struct cpucycles_perf *p, struct cpucycles_setup *s)
{
  if (p->map_refused) return cpucycles_refuse(s, CPUCYCLES_REFUSED_MAP, p->map_refused, 0, 0);
  if (!p->refused[0]) return -1;
  return cpucycles_refuse(s, CPUCYCLES_REFUSED_PERF, p->refused[0], p->refused[1], p->kept);
}

/* An event for this thread, as p says (type, config, config1); for a
   hardware event, on the PMU of the given type (0: whichever PMU the
   generic hardware event lands on). Kernels and hypervisors differ in
   which exclusions they accept, so every combination is tried, most
   exclusive first. Remembered in k: the kernel has said there is no
   hardware cycle event here (ENOENT, ENODEV) or no perf_event at all
   (ENOSYS). What the kernel said goes to p (refused, kept): stores, the
   first call's only cost for the trace's account of a refusal. */
static int open_one(struct cpucycles_perf_kernel *k, struct cpucycles_perf *p, unsigned int pmu)
{
  struct perfabi_attr attr;
  unsigned int type = p->type;
  int kernel, hv;

  p->refused[0] = p->refused[1] = 0;
  p->kept = p->map_refused = 0;
  if (k->no_perf || (type == PERFABI_TYPE_HARDWARE && k->no_hardware)) {
    p->refused[0] = k->no_perf ? k->no_perf : k->no_hardware;
    p->kept = 1;
    return -1;
  }

  for (kernel = 1; kernel >= 0; --kernel)
    for (hv = 1; hv >= 0; --hv) {
      long fd;
      int error;
      memset(&attr, 0, sizeof attr);
      attr.type = type;
      attr.size = sizeof attr;
      attr.config = p->config | (unsigned long long)pmu << PERFABI_PMU_TYPE_SHIFT;
      attr.config1 = p->config1;
      /* A flexible event is taken off its counter whenever more events
         want counters than there are (multiplexing), and a counter read
         in user mode then stops or belongs to another event. A pinned one
         stays on whenever its thread runs, or fails for good (its page
         says index 0 and read() returns no bytes), which readers treat
         as failure. */
      attr.pinned = 1;
      attr.exclude_kernel = (unsigned)kernel;
      attr.exclude_hv = (unsigned)hv;
      fd = k->open(&attr);
      if (fd >= 0) return (int)fd;
      /* No such event, no such PMU, no perf_event at all: no exclusion
         changes that, and three more refused calls per counter were ~10 us
         of a first call in a VM without a PMU. */
      error = CPUCYCLES_ERRNO;
      p->refused[!kernel] = error;
      if (error == ENOSYS) k->no_perf = error;
      if ((error == ENOENT || error == ENODEV) && type == PERFABI_TYPE_HARDWARE)
        k->no_hardware = error;
      if (error == ENOENT || error == ENODEV || error == ENOSYS) return -1;
    }
  return -1;
}

/* A PMU type file: a decimal number and a newline. */
static int read_type(const char *root, const char *path, unsigned int *type)
{
  char buf[32];
  long long v;
  long n;
  int fd = cpucycles_open_path(root, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

  if (fd < 0) return -1;
  n = cpucycles_read_some(&fd, buf, sizeof buf);
  close(fd);
  if (n <= 0 || n == (long)sizeof buf || !cpucycles_parse_integer(buf, (size_t)n, 0, 0xffffffffLL, &v))
    return -1;
  *type = (unsigned int)v;
  return 0;
}

int cpucycles_perf_core_types(const char *root, unsigned int types[CPUCYCLES_PERF_MAX])
{
  static const char pmus[CPUCYCLES_PERF_MAX][44] = {
    "/sys/bus/event_source/devices/cpu_core/type", "/sys/bus/event_source/devices/cpu_atom/type"
  };
  int i, n = 0;
  for (i = 0; i < CPUCYCLES_PERF_MAX; ++i)
    if (read_type(root, pmus[i], &types[n]) == 0) ++n;
  return n;
}

/* An event's count through its descriptor: 0 when read() gives no count,
   as for a pinned event in its error state. */
static int fd_count(int fd, long long *count)
{
  int64_t c;
  if (fd < 0 || read(fd, &c, sizeof c) != (ssize_t)sizeof c) return 0;
  *count = (long long)c;
  return 1;
}

static size_t page_size(void)
{
  long ps = sysconf(_SC_PAGESIZE);
  return ps > 0 ? (size_t)ps : 4096;
}

static void drop(struct cpucycles_perf *p, int unmap)
{
  int i;
  for (i = 0; i < p->n; ++i) {
    if (unmap && p->page[i]) munmap((void *)p->page[i], page_size());
    p->page[i] = 0;
    if (p->fd[i] >= 0) close(p->fd[i]);
    p->fd[i] = -1;
  }
  p->n = 0;
}

/* A hardware cycle event needs one event per core PMU on hybrid x86, and
   finding them costs two sysfs lookups, cold path walks of several
   microseconds each in a first call. The generic event is opened first:
   where the kernel refuses it as absent, no core PMU has one and the
   lookups are spared. The kernel (kernel/events/core.c, perf_init_event,
   Linux 5.13 and later) sends a PERF_TYPE_HARDWARE event whose config
   bits 32-63 are 0 to the PMU registered as PERF_TYPE_RAW, which on
   hybrid x86 is cpu_core (arch/x86/events/core.c, init_hw_perf_events),
   and on ENOENT from it to every other PMU in turn: ENOENT comes back
   only when every PMU, cpu_atom included, refused a cycle event, and
   ENODEV when the x86 PMU is not initialized at all. Either answer, or
   ENOSYS, already rules out every hardware event (open_one), so the
   per-PMU opens that the lookups would lead to could not succeed. Any
   other answer (EACCES under perf_event_paranoid) leaves the order as it
   was: the lookups, then one event per core PMU. Where the generic event
   opens and the machine is not hybrid, it is the event; on a hybrid one
   it is closed and one event per core PMU is opened in its place, as
   before. Once the lookups are done, later opens (other counters, other
   threads) go straight to the PMUs they found. */
static int open_events(struct cpucycles_perf_kernel *k, struct cpucycles_perf *p)
{
  int i, n = 0, generic = -1;

  p->n = 0;
  if (p->type == PERFABI_TYPE_HARDWARE) {
    if (k->ncore < 0) {
      generic = open_one(k, p, 0);
      if (generic < 0 && (k->no_hardware || k->no_perf)) return -1;
      k->ncore = cpucycles_perf_core_types(k->root, k->core);
      if (k->ncore > 0 && generic >= 0) {
        close(generic);
        generic = -1;
      }
      /* Not hybrid, and the one event it would open again was refused. */
      if (k->ncore == 0 && generic < 0) return -1;
    }
    n = k->ncore;
  }
  for (i = 0; i < (n ? n : 1); ++i) {
    void *page;
    /* the generic event, kept only where it is the one event (n == 0) */
    p->fd[i] = generic >= 0 ? generic : open_one(k, p, n ? k->core[i] : 0);
    generic = -1;
    p->page[i] = 0;
    p->n = i + 1;
    if (p->fd[i] < 0) goto fail;
    if (!(p->flags & CPUCYCLES_PERF_MAP)) continue;
    page = mmap(0, page_size(), PROT_READ, MAP_SHARED, p->fd[i], 0);
    if (page == MAP_FAILED) {
      p->map_refused = CPUCYCLES_ERRNO;
      goto fail;
    }
    p->page[i] = page;
  }
  return 0;
fail:
  drop(p, 1);
  return -1;
}

int cpucycles_perf_open_with(struct cpucycles_perf_kernel *k, struct cpucycles_perf *p)
{
  return open_events(k, p);
}

int cpucycles_perf_user_read(const struct cpucycles_perf *p)
{
  int i;
  for (i = 0; i < p->n; ++i)
    if (!p->page[i] || !p->page[i]->cap_user_rdpmc) return 0;
  return p->n > 0;
}

/* ---- each thread's own events ---- */

/* The owners whose threads may hold events, so that a thread's events are
   closed when it exits and dropped in a forked child. A slot is filled
   once, never emptied, by a thread's first read: in several threads at
   once, or in a signal handler, while another thread forks and its fork
   handlers read the slots. Hence atomics (owner_at, register_owner). */
#define OWNERS_MAX 4
static struct cpucycles_perf_owner *owners[OWNERS_MAX];
static pthread_key_t exit_key;
/* Whether the fork hook and the exit key are in place (made at load,
   cpucycles_perf_at_load): without them no thread opens events. */
static int watching;

static struct cpucycles_perf_owner *owner_at(int i)
{
  return __atomic_load_n(&owners[i], __ATOMIC_ACQUIRE);
}

/* This thread's events of every owner, closed (unmap: and unmapped; a
   forked child has descriptors but no pages). In a forked child the
   thread goes on from the count it had as it forked. */
static void forget_own(int child)
{
  int i;
  for (i = 0; i < OWNERS_MAX; ++i) {
    struct cpucycles_perf_owner *o = owner_at(i);
    if (o) {
      struct cpucycles_perf_own *t = o->mine();
      drop(&t->perf, !child);
      t->state = CPUCYCLES_PERF_OWN_NONE;
      if (child) t->shift = t->last = t->at_fork;
    }
  }
}

/* Before a fork, the forking thread's count, for the child to go on from
   (a read of its page or descriptor, only where it has events). */
void cpucycles_perf_before_fork(void)
{
  int i;
  for (i = 0; i < OWNERS_MAX; ++i) {
    struct cpucycles_perf_owner *o = owner_at(i);
    if (o) {
      struct cpucycles_perf_own *t = o->mine();
      t->at_fork = t->state == CPUCYCLES_PERF_OWN_NONE ? t->last : cpucycles_perf_own_count(o);
    }
  }
}

/* The kernel does not copy perf mappings into a forked child, and the
   events it inherits count the parent: a child reading a page it no longer
   has would crash. So the child's thread drops them and opens its own on
   its first read. */
void cpucycles_perf_in_forked_child(void)
{
  forget_own(1);
}

static void at_thread_exit(void *unused)
{
  (void)unused;
  forget_own(0);
}

/* The key is made at load (api.c's at_load), not on a thread's first
   read: that may be made in a signal handler, where it is not safe:
   musl's pthread_key_create takes a lock that an exiting thread holds.
   At load it makes no system call in glibc (static tables), so a program
   that never calls the library does not see it load. The fork hook's
   calls do nothing until an owner is registered: a fork of a program
   that never reads a perf counter costs it a look at four null
   pointers. */
void cpucycles_perf_at_load(int forks_watched)
{
  watching = forks_watched && pthread_key_create(&exit_key, at_thread_exit) == 0;
}

/* Records o among the owners, once: a compare-and-swap a slot, safe in a
   signal handler. Slots fill in order and never empty, so o is found in
   one before the first empty slot or goes into that one; where another
   thread fills it first, it is looked at as one more full slot. */
static int register_owner(struct cpucycles_perf_owner *o)
{
  int i;
  if (!watching) return -1;
  for (i = 0; i < OWNERS_MAX; ++i) {
    struct cpucycles_perf_owner *seen = 0;
    if (__atomic_compare_exchange_n(&owners[i], &seen, o, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
        seen == o)
      return 0;
  }
  return -1;
}

/* Opens the calling thread's events; 0, or -1 with nothing open. The
   owner is registered once an event opens, so a first call on a machine
   without perf_event registers nothing. The key's value only has to be
   non-null for at_thread_exit to run.
   pthread_setspecific is not on POSIX's list of functions safe in a
   signal handler, and this may run in one. musl stores into the thread's
   table, made with the thread. glibc stores into a block inside the
   thread's descriptor for the first 32 keys of a process, and allocates a
   block on a thread's first use of a later key: made at load, this key is
   the process's lowest free one, one of the first 32 unless 32 were made
   before the library was loaded (test/perf/perfsignal.c checks that it
   is). Then a plain store, as safe as any. */
static int open_own(struct cpucycles_perf_owner *o, struct cpucycles_perf_own *t)
{
  t->perf.type = o->type;
  t->perf.config = o->config;
  t->perf.config1 = o->config1;
  t->perf.flags = o->flags & CPUCYCLES_PERF_MAP;
  if (open_events(&machine, &t->perf) != 0) return -1;
  if (register_owner(o) != 0 || pthread_setspecific(exit_key, (void *)o) != 0) {
    drop(&t->perf, 1);
    return -1;
  }
  t->state = CPUCYCLES_PERF_OWN_OPEN;
  return 0;
}

void cpucycles_perf_own_close(struct cpucycles_perf_owner *o)
{
  struct cpucycles_perf_own *t = o->mine();
  drop(&t->perf, 1);
  t->state = CPUCYCLES_PERF_OWN_NONE;
}

int cpucycles_perf_own_open(struct cpucycles_perf_owner *o)
{
  struct cpucycles_perf_own *t = o->mine();
  cpucycles_perf_own_close(o);
  t->shift = t->last = 0;
  return open_own(o, t);
}

/* From here on the thread counts with the OS clock at the estimated rate,
   starting from a count no smaller than any it returned: its events are
   gone (an error state, which a pinned event enters when the kernel
   cannot give it a counter) or it could not open any (no descriptors
   left). Readings go on increasing and never decrease. A stopped event's
   page holds its final count in offset, with index 0. The rate is the
   estimate from the persecond sources, the figure cpucycles_persecond()
   gives, asked here rather than of the API above: a file below api.c
   never calls it (doc/internals.md). */
static void start_clock(struct cpucycles_perf_own *t)
{
  long long base = t->last, stopped = t->shift;
  int i;
  for (i = 0; i < t->perf.n; ++i)
    if (t->perf.page[i] && !t->perf.page[i]->index) stopped += (long long)t->perf.page[i]->offset;
  if (stopped > base) base = stopped;
  drop(&t->perf, 1);
  t->base = base;
  t->since = cpucycles_os_ns();
  if (!t->persecond) t->persecond = cpucycles_persecond_here();
  t->state = CPUCYCLES_PERF_OWN_CLOCK;
}

static long long on_clock(const struct cpucycles_perf_own *t)
{
  double rate = (double)t->persecond / 1e9;
  long long ns = cpucycles_os_ns() - t->since;
  return t->base + (long long)((double)(ns > 0 ? ns : 0) * rate);
}

long long cpucycles_perf_own_count(struct cpucycles_perf_owner *o)
{
  struct cpucycles_perf_own *t = o->mine();
  long long total = t->shift, c;
  int i;

  if (t->state == CPUCYCLES_PERF_OWN_NONE && open_own(o, t) != 0) start_clock(t);
  if (t->state == CPUCYCLES_PERF_OWN_CLOCK) return on_clock(t);
  for (i = 0; i < t->perf.n; ++i) {
    if (o->counter && t->perf.page[i] &&
        cpucycles_perfpage_count_at(t->perf.page[i], o->only, o->counter, 0, &c)) {
      total += c;
      continue;
    }
    if (!fd_count(t->perf.fd[i], &c)) {
      start_clock(t);
      return on_clock(t);
    }
    total += c;
  }
  t->last = total;
  return total;
}

