/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * perfabi.h: the part of Linux's perf_event interface the library uses,
 * declared here rather than taken from <linux/perf_event.h>. That header
 * comes with the kernel headers, which a C library need not ship: musl's
 * compiler wrapper (musl-gcc) sees none, and the perf counters would not
 * compile there. The interface is the kernel's stable ABI, so a copy of
 * its few pieces is the same on every build; test/unit/perfabi.c compares
 * each piece with <linux/perf_event.h> wherever that header exists,
 * including the big-endian hosts of make test-cross, whose bit-fields
 * lie the other way round.
 *
 * The names are the kernel's with PERFABI_ / perfabi_ in front, so a file
 * may include both headers.
 */
#ifndef CPUCYCLES_PERFABI_H
#define CPUCYCLES_PERFABI_H

#include <stdint.h>

/* attr.type, and attr.config for each type */
#define PERFABI_TYPE_HARDWARE 0
#define PERFABI_TYPE_SOFTWARE 1
#define PERFABI_COUNT_HW_CPU_CYCLES 0
#define PERFABI_COUNT_SW_TASK_CLOCK 1

/* perf_event_open's flags: the descriptor is closed on exec */
#define PERFABI_FLAG_FD_CLOEXEC (1UL << 3)

/* A hardware event's config may name the PMU (hybrid x86) in its top half. */
#define PERFABI_PMU_TYPE_SHIFT 32

/* The first published size of the attributes (the kernel's VER0), which
   every kernel with perf_event accepts; it ends with config1, the last
   field the library sets. The bit-fields are declared as the kernel
   declares them (64-bit units, in the same order), so the compiler lays
   them out the kernel's way on either byte order. */
struct perfabi_attr {
  uint32_t type;
  uint32_t size;
  uint64_t config;
  uint64_t sample_period;
  uint64_t sample_type;
  uint64_t read_format;
  uint64_t disabled : 1, inherit : 1, pinned : 1, exclusive : 1, exclude_user : 1,
           exclude_kernel : 1, exclude_hv : 1, other_flags : 57;
  uint32_t wakeup_events;
  uint32_t bp_type;
  uint64_t config1;
};

/* The start of an event's mapped page, up to the counter's width: what a
   user-mode read of the counter needs (see perfpage.h). The page itself
   is larger; the library only reads it, through a pointer. */
struct perfabi_page {
  uint32_t version;
  uint32_t compat_version;
  uint32_t lock;
  uint32_t index;
  int64_t offset;
  uint64_t time_enabled;
  uint64_t time_running;
  uint64_t cap_bit0 : 1, cap_bit0_is_deprecated : 1, cap_user_rdpmc : 1, other_caps : 61;
  uint16_t pmc_width;
};

#endif
