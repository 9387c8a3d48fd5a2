/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* tscrate.c: the TSC rate from CPUID, played by a fake CPU that answers
   from a table of leaves and notes every leaf asked. The Intel values are
   those public CPUID dumps show for the named CPUs; the AMD one is this
   development VM's (an AMD EPYC under KVM). Besides the rate, each case
   checks which leaves were asked: none above its range's maximum, no
   hypervisor leaf without CPUID.1 ECX bit 31, no leaf 0x15/0x16 of a
   vendor that has none, and the exact list where it matters, since every
   leaf costs a hypervisor exit in a virtual machine. */
#include <string.h>
#include "check.h"
#include "internal.h"

#define INVARIANT (1U << 8)
#define HYPERVISOR (1U << 31)

/* Leaf 0's EBX, ECX, EDX for a vendor string. */
#define GENUINEINTEL 0x756e6547, 0x6c65746e, 0x49656e69
#define AUTHENTICAMD 0x68747541, 0x444d4163, 0x69746e65
#define HYGONGENUINE 0x6f677948, 0x656e6975, 0x6e65476e
#define SHANGHAI 0x68532020, 0x20206961, 0x68676e61 /* Zhaoxin: "  Shanghai  " */

#define LEAVES 12
struct leaf {
  unsigned int leaf, r[4]; /* EAX, EBX, ECX, EDX */
};
struct cpu {
  struct leaf l[LEAVES]; /* ends at the first leaf 0 after the first */
  unsigned int asked[32];
  int nasked;
};

static const struct leaf *find(const struct cpu *c, unsigned int leaf)
{
  int i;
  for (i = 0; i < LEAVES && (i == 0 || c->l[i].leaf); ++i)
    if (c->l[i].leaf == leaf) return &c->l[i];
  return 0;
}

/* A leaf the table lacks answers zeros, as AMD's reserved leaves do. */
static void fake_cpuid(void *ctx, unsigned int leaf, unsigned int r[4])
{
  struct cpu *c = ctx;
  const struct leaf *l = find(c, leaf);
  if (c->nasked < (int)(sizeof c->asked / sizeof c->asked[0])) c->asked[c->nasked++] = leaf;
  if (l)
    memcpy(r, l->r, sizeof l->r);
  else
    memset(r, 0, 4 * sizeof r[0]);
}

static int was_asked(const struct cpu *c, unsigned int leaf)
{
  int i;
  for (i = 0; i < c->nasked; ++i)
    if (c->asked[i] == leaf) return 1;
  return 0;
}

static unsigned int reg(const struct cpu *c, unsigned int leaf, int i)
{
  const struct leaf *l = find(c, leaf);
  return l ? l->r[i] : 0;
}

static int is_amd_like(const struct cpu *c)
{
  unsigned int b = reg(c, 0, 1);
  return b == 0x68747541 || b == 0x6f677948;
}

/* What no run may do, whatever the CPU: a leaf above its range's maximum
   (as the table states it), a hypervisor leaf without the hypervisor bit,
   a leaf twice, or 0x15/0x16 of AMD or Hygon. "" when none. */
static const char *misasked(const struct cpu *c)
{
  int i, j;
  for (i = 0; i < c->nasked; ++i) {
    unsigned int leaf = c->asked[i];
    for (j = 0; j < i; ++j)
      if (c->asked[j] == leaf) return "a leaf asked twice";
    if (leaf >= 0x80000000) {
      if (leaf > 0x80000000 && (!was_asked(c, 0x80000000) || leaf > reg(c, 0x80000000, 0)))
        return "an extended leaf above the maximum";
    } else if (leaf >= 0x40000000) {
      if (!(reg(c, 1, 2) & HYPERVISOR) || (!was_asked(c, 1)))
        return "a hypervisor leaf without the hypervisor bit";
      if (leaf > 0x40000000 && (!was_asked(c, 0x40000000) || leaf > reg(c, 0x40000000, 0)))
        return "a hypervisor leaf above the maximum";
    } else {
      if (leaf > 0 && leaf > reg(c, 0, 0)) return "a basic leaf above the maximum";
      if ((leaf == 0x15 || leaf == 0x16) && is_amd_like(c)) return "leaf 0x15/0x16 of AMD or Hygon";
    }
  }
  return "";
}

static long long rate(struct cpu *c)
{
  c->nasked = 0;
  return cpucycles_tscrate_asking(fake_cpuid, c);
}

/* The rate, and nothing asked that should not be. */
#define RATE(cpu, want, ...)                                                          \
  do {                                                                                \
    long long got_ = rate(&(cpu));                                                    \
    const char *bad_ = misasked(&(cpu));                                              \
    CHECK(got_ == (want) && !*bad_, __VA_ARGS__);                                     \
    if (*bad_) printf("  ... %s\n", bad_);                                            \
    if (got_ != (want)) printf("  ... got %lld, want %lld\n", got_, (long long)(want)); \
  } while (0)

/* The leaves asked, exactly and in order. */
static int asked_exactly(const struct cpu *c, const unsigned int *want, int n)
{
  int i;
  if (c->nasked != n) return 0;
  for (i = 0; i < n; ++i)
    if (c->asked[i] != want[i]) return 0;
  return 1;
}
#define ASKED(cpu, ...)                                                                  \
  do {                                                                                   \
    static const unsigned int want_[] = { __VA_ARGS__ };                                  \
    int i_, ok_ = asked_exactly(&(cpu), want_, (int)(sizeof want_ / sizeof want_[0]));    \
    CHECK(ok_, "leaves asked: %s", #__VA_ARGS__);                                         \
    for (i_ = 0; !ok_ && i_ < (cpu).nasked; ++i_) printf("  ... asked %#x\n", (cpu).asked[i_]); \
  } while (0)

static struct leaf *at(struct cpu *c, unsigned int leaf)
{
  return (struct leaf *)find(c, leaf);
}

/* Pentium G4600 (Kaby Lake, 3.60 GHz): leaf 0x15 gives the ratio 300/2
   but no crystal, so leaf 0x16's 3600 MHz base is the rate. */
static const struct cpu g4600 = { {
  { 0, { 0x16, GENUINEINTEL } },
  { 1, { 0x906e9, 0, 0x4ffaebbf, 0 } },
  { 0x15, { 2, 0x12c, 0, 0 } },
  { 0x16, { 0xe10, 0xe10, 0x64, 0 } },
  { 0x80000000, { 0x80000008, 0, 0, 0 } },
  { 0x80000007, { 0, 0, 0, INVARIANT } },
}, { 0 }, 0 };

/* Core i7-12700K (Alder Lake): crystal 38.4 MHz times 188/2 is 3609.6 MHz,
   a little above the 3600 MHz base that leaf 0x16 gives. */
static const struct cpu i7_12700k = { {
  { 0, { 0x20, GENUINEINTEL } },
  { 1, { 0x90672, 0, 0x7ffafbff, 0 } },
  { 0x15, { 2, 0xbc, 0x0249f000, 0 } },
  { 0x16, { 0xe10, 0x1324, 0x64, 0 } },
  { 0x80000000, { 0x80000008, 0, 0, 0 } },
  { 0x80000007, { 0, 0, 0, INVARIANT } },
}, { 0 }, 0 };

/* This VM: AMD EPYC (family 0x19) under KVM, maximum basic leaf 0x1c,
   invariant TSC, KVM's hypervisor leaves ending at 0x40000001. The table
   answers leaves 0x15/0x16 with a rate no AMD states, so that asking them
   would show in the result too. */
static const struct cpu epyc_kvm = { {
  { 0, { 0x1c, AUTHENTICAMD } },
  { 1, { 0xa10f11, 0, 0xfffa3203, 0 } },
  { 0x15, { 2, 0xbc, 0x0249f000, 0 } },
  { 0x16, { 0xe10, 0, 0, 0 } },
  { 0x40000000, { 0x40000001, 0x4b4d564b, 0x564b4d56, 0x4d } },
  { 0x80000000, { 0x80000021, 0, 0, 0 } },
  { 0x80000007, { 0, 0, 0, INVARIANT } },
}, { 0 }, 0 };

/* A Hygon Dhyana, with the same bait in leaves 0x15/0x16. */
static const struct cpu dhyana = { {
  { 0, { 0x16, HYGONGENUINE } },
  { 1, { 0x900f01, 0, 0x7ed8320b, 0 } },
  { 0x15, { 2, 0xbc, 0x0249f000, 0 } },
  { 0x16, { 0xe10, 0, 0, 0 } },
  { 0x80000000, { 0x8000001f, 0, 0, 0 } },
  { 0x80000007, { 0, 0, 0, INVARIANT } },
}, { 0 }, 0 };

/* A vendor that is neither Intel nor AMD is asked what its maximum allows,
   as before: a Zhaoxin-like CPU stating 2700 MHz in leaf 0x16. */
static const struct cpu shanghai = { {
  { 0, { 0x16, SHANGHAI } },
  { 1, { 0x107b5, 0, 0x7eda320b, 0 } },
  { 0x16, { 0xa8c, 0, 0, 0 } },
  { 0x80000000, { 0x80000008, 0, 0, 0 } },
  { 0x80000007, { 0, 0, 0, INVARIANT } },
}, { 0 }, 0 };

static void known_cpus(void)
{
  struct cpu c;

  c = g4600;
  RATE(c, 3600000000LL, "Pentium G4600: no crystal in leaf 0x15, base 3600 MHz from leaf 0x16");
  ASKED(c, 0, 1, 0x15, 0x16, 0x80000000, 0x80000007);
  c = i7_12700k;
  RATE(c, 3609600000LL, "Core i7-12700K: 38.4 MHz crystal * 188 / 2 = 3609.6 MHz");
  ASKED(c, 0, 1, 0x15, 0x80000000, 0x80000007);
  c = epyc_kvm;
  RATE(c, 0, "AMD EPYC under KVM: no rate stated, and leaves 0x15/0x16 are not asked");
  ASKED(c, 0, 1, 0x40000000);
  c = epyc_kvm;
  at(&c, 1)->r[2] &= ~HYPERVISOR;
  RATE(c, 0, "AMD EPYC on bare metal: no hypervisor leaf asked");
  ASKED(c, 0, 1);
  c = dhyana;
  RATE(c, 0, "Hygon Dhyana: leaves 0x15/0x16 are not asked");
  ASKED(c, 0, 1);
  c = shanghai;
  RATE(c, 2700000000LL, "another vendor: leaf 0x16 is asked as its maximum allows");
  ASKED(c, 0, 1, 0x15, 0x16, 0x80000000, 0x80000007);
}

static void altered(void)
{
  struct cpu c;

  c = i7_12700k;
  at(&c, 0x80000007)->r[3] = 0;
  RATE(c, 0, "TSC not invariant: no rate");
  c = i7_12700k;
  at(&c, 0x80000000)->r[0] = 0x80000006;
  RATE(c, 0, "leaf 0x80000007 beyond the maximum: no rate, and not asked");
  c = i7_12700k;
  at(&c, 0x80000000)->r[0] = 0x80001000;
  RATE(c, 0, "an extended maximum out of its range: no rate");
  c = i7_12700k;
  at(&c, 0)->r[0] = 0x14;
  RATE(c, 0, "leaves 0x15/0x16 beyond the maximum are not asked");
  ASKED(c, 0, 1);
  c = i7_12700k;
  at(&c, 0)->r[0] = 0x15;
  RATE(c, 3609600000LL, "leaf 0x15 alone suffices");
  c = i7_12700k;
  at(&c, 0)->r[0] = 0;
  RATE(c, 0, "maximum basic leaf 0: nothing more asked");
  ASKED(c, 0);
  c = i7_12700k;
  at(&c, 0x15)->r[0] = 0;
  RATE(c, 3600000000LL, "zero denominator: falls to leaf 0x16");
  c = i7_12700k;
  at(&c, 0x15)->r[1] = 0;
  RATE(c, 3600000000LL, "zero numerator: falls to leaf 0x16");
  c = g4600;
  at(&c, 0x16)->r[0] = 0xffff0e10;
  RATE(c, 3600000000LL, "leaf 0x16: only EAX[15:0] is MHz");
  c = g4600;
  at(&c, 0x16)->r[0] = 0;
  RATE(c, 0, "leaf 0x16 zero: no rate, and invariance not asked");
  ASKED(c, 0, 1, 0x15, 0x16);
  c = i7_12700k;
  at(&c, 0x15)->r[2] = 0xffffffff;
  at(&c, 0x15)->r[1] = 0xffffffff;
  at(&c, 0x15)->r[0] = 1;
  RATE(c, 3600000000LL, "absurd leaf 0x15 product (about 1.8e19) is rejected without overflow");
}

/* A guest whose hypervisor states 2918400 kHz, on a host CPU whose leaf
   0x15 would say something else. */
static void hypervisor(void)
{
  static const struct leaf max = { 0x40000000, { 0x40000010, 0, 0, 0 } };
  static const struct leaf tsc = { 0x40000010, { 2918400, 1000000, 0, 0 } };
  struct cpu guest = i7_12700k, c;

  at(&guest, 1)->r[2] |= HYPERVISOR;
  guest.l[6] = max;
  guest.l[7] = tsc;
  c = guest;
  RATE(c, 2918400000LL, "hypervisor leaf 0x40000010 comes first");
  ASKED(c, 0, 1, 0x40000000, 0x40000010, 0x80000000, 0x80000007);
  c = guest;
  at(&c, 1)->r[2] &= ~HYPERVISOR;
  RATE(c, 3609600000LL, "without the hypervisor bit, no hypervisor leaf is asked");
  c = guest;
  at(&c, 0x40000000)->r[0] = 0x4000000f;
  RATE(c, 3609600000LL, "hypervisor offering fewer leaves: 0x40000010 not asked");
  c = guest;
  at(&c, 0x40000000)->r[0] = 0x40010000;
  RATE(c, 3609600000LL, "hypervisor maximum out of its range: 0x40000010 not asked");
  c = guest;
  at(&c, 0x40000010)->r[0] = 0;
  RATE(c, 3609600000LL, "hypervisor leaf zero: passed over");
  c = epyc_kvm;
  c.l[4] = max;
  c.l[7] = tsc;
  RATE(c, 2918400000LL, "AMD guest: the hypervisor's leaf is the one source");
  ASKED(c, 0, 1, 0x40000000, 0x40000010, 0x80000000, 0x80000007);
}

int main(void)
{
  struct cpu c;

  known_cpus();
  altered();
  hypervisor();
  memset(&c, 0, sizeof c);
  RATE(c, 0, "all zero: no rate");
  return check_done();
}
