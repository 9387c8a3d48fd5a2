/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* perfabi.c: the library's own declarations of perf_event (perfabi.h)
   against the kernel's <linux/perf_event.h>, wherever a build has that
   header: the same numbers, each field at the same place, each flag bit
   in the same bit; and its futex operations (futexabi.h) against
   <linux/futex.h>. Built for every Linux host, so make test-cross checks
   the big-endian layouts of the bit-fields too. */
#include <stddef.h>
#include <string.h>
#include "check.h"
#include "futexabi.h"
#include "perfabi.h"

#if defined(__has_include)
#if __has_include(<linux/perf_event.h>)
#define HAVE_KERNEL_HEADER 1
#endif
#endif

#ifndef HAVE_KERNEL_HEADER
int main(void)
{
  SKIP("perfabi.h against <linux/perf_event.h>: this compiler sees no kernel headers");
  return check_failures;
}
#else
#include <linux/futex.h>
#include <linux/perf_event.h>

#define SAME_FIELD(ours, theirs, field)                                                      \
  CHECK(offsetof(struct ours, field) == offsetof(struct theirs, field)                       \
        && sizeof ((struct ours *)0)->field == sizeof ((struct theirs *)0)->field,            \
        #ours "." #field " is where the kernel has it (offset %u)",                           \
        (unsigned)offsetof(struct theirs, field))

/* A bit-field set alone in each structure, all else zero: the same bytes. */
#define SAME_BIT(ours, theirs, field, bytes)                                                 \
  do {                                                                                       \
    struct ours o_;                                                                          \
    struct theirs t_;                                                                        \
    memset(&o_, 0, sizeof o_);                                                               \
    memset(&t_, 0, sizeof t_);                                                               \
    o_.field = 1;                                                                            \
    t_.field = 1;                                                                            \
    CHECK(memcmp(&o_, &t_, bytes) == 0, #ours "." #field " is the kernel's bit");            \
  } while (0)

int main(void)
{
  CHECK(PERFABI_TYPE_HARDWARE == PERF_TYPE_HARDWARE, "PERF_TYPE_HARDWARE");
  CHECK(PERFABI_TYPE_SOFTWARE == PERF_TYPE_SOFTWARE, "PERF_TYPE_SOFTWARE");
  CHECK(PERFABI_COUNT_HW_CPU_CYCLES == PERF_COUNT_HW_CPU_CYCLES, "PERF_COUNT_HW_CPU_CYCLES");
  CHECK(PERFABI_COUNT_SW_TASK_CLOCK == PERF_COUNT_SW_TASK_CLOCK, "PERF_COUNT_SW_TASK_CLOCK");
  CHECK(PERFABI_FLAG_FD_CLOEXEC == PERF_FLAG_FD_CLOEXEC, "PERF_FLAG_FD_CLOEXEC");
#ifdef PERF_PMU_TYPE_SHIFT
  CHECK(PERFABI_PMU_TYPE_SHIFT == PERF_PMU_TYPE_SHIFT, "PERF_PMU_TYPE_SHIFT");
#else
  SKIP("PERF_PMU_TYPE_SHIFT: these kernel headers predate it");
#endif
  CHECK(sizeof(struct perfabi_attr) == PERF_ATTR_SIZE_VER0,
        "perfabi_attr is the first published size, %d bytes", PERF_ATTR_SIZE_VER0);

  SAME_FIELD(perfabi_attr, perf_event_attr, type);
  SAME_FIELD(perfabi_attr, perf_event_attr, size);
  SAME_FIELD(perfabi_attr, perf_event_attr, config);
  SAME_FIELD(perfabi_attr, perf_event_attr, config1);
  SAME_BIT(perfabi_attr, perf_event_attr, disabled, sizeof(struct perfabi_attr));
  SAME_BIT(perfabi_attr, perf_event_attr, inherit, sizeof(struct perfabi_attr));
  SAME_BIT(perfabi_attr, perf_event_attr, pinned, sizeof(struct perfabi_attr));
  SAME_BIT(perfabi_attr, perf_event_attr, exclude_user, sizeof(struct perfabi_attr));
  SAME_BIT(perfabi_attr, perf_event_attr, exclude_kernel, sizeof(struct perfabi_attr));
  SAME_BIT(perfabi_attr, perf_event_attr, exclude_hv, sizeof(struct perfabi_attr));

  SAME_FIELD(perfabi_page, perf_event_mmap_page, lock);
  SAME_FIELD(perfabi_page, perf_event_mmap_page, index);
  SAME_FIELD(perfabi_page, perf_event_mmap_page, offset);
  SAME_FIELD(perfabi_page, perf_event_mmap_page, pmc_width);
  SAME_BIT(perfabi_page, perf_event_mmap_page, cap_user_rdpmc, sizeof(struct perfabi_page));

  CHECK(FUTEXABI_WAIT_PRIVATE == FUTEX_WAIT_PRIVATE, "FUTEX_WAIT_PRIVATE");
  CHECK(FUTEXABI_WAKE_PRIVATE == FUTEX_WAKE_PRIVATE, "FUTEX_WAKE_PRIVATE");
  return check_failures != 0;
}
#endif
