/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* probe.h: a table of one counter for cpucycles_select whose setup, run
   with the guard up, raises probe_in and waits (probe_wait seconds at
   most) for probe_done: the selection held inside its guarded setup at a
   known point while another thread faults, forks, ... Its readings are
   the OS clock in nanoseconds. */
#ifndef PROBE_H
#define PROBE_H
#include "internal.h"
#include "stall.h"

static volatile int probe_in, probe_done;
static double probe_wait = 10;

static long long probe_read(void) { return cpucycles_os_ns(); }
static int probe_setup(struct cpucycles_setup *s)
{
  stall_raise(&probe_in);
  if (!stall_await(&probe_done, probe_wait)) return -1;
  s->kind = CPUCYCLES_OSCLOCK;
  s->hz = 1000000000;
  return 0;
}
static const struct cpucycles_counter probe_counter = { probe_read, probe_setup, 0 };
static const struct cpucycles_option probe_table[1] = { { "held", &probe_counter, 0, 0 } };
#endif
