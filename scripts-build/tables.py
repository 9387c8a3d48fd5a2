# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""tables.py: the two tables of the project, read by configure, the build
and every test driver, so that a counter or a host is described once.

counters(): cpucycles/options, the counters in the order the first call
tries them, each with the operating system it belongs to, the kind of
clock it reads and how it reads it.

HOSTS and TOOLCHAINS: the CPUs the build knows by name and the cross
toolchains the test drivers use for them.

Set sys.dont_write_bytecode before importing it: Python writes a module's
__pycache__ before running the module, so the line below comes too late
for this file itself and guards only what it imports. A read-only or
packaged source tree must get no __pycache__.
"""
import collections
import os
import re
import sys

sys.dont_write_bytecode = True

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# --- counters -------------------------------------------------------------

class Counter(collections.namedtuple('Counter', 'name os kind reads')):
    """A line of cpucycles/options, and what follows from it, said here
    once for configure's tables (the library's and cpucycles-info's) and
    the tests."""
    __slots__ = ()

    @property
    def may_fault(self):
        """Its read is an instruction the OS may refuse to user mode: the
        first call tries it only under the signal guard."""
        return self.reads != 'os'

    @property
    def per_thread(self):
        """Its readings are the calling thread's own count: read through a
        perf event of that thread (doc/trust.md, per-thread)."""
        return self.reads == 'event' or self.kind == 'core-kernel'


# The operating system a counter is written for: 'any' builds everywhere
# its CPU matches; the others only for that OS (configure's OSES).
COUNTER_OSES = ('any', 'linux', 'macos', 'windows')

# What a counter's readings are, as cpucycles-info explains them:
# core        cycles of the core the thread runs on, read directly;
# core-kernel cycles of this thread, read through the kernel;
# offcore     a clock beside the core at a fixed rate (RDTSC, timebases);
# osclock     an OS clock converted to cycles with the estimate;
# none        no clock at all (every reading 0).
COUNTER_KINDS = ('core', 'core-kernel', 'offcore', 'osclock', 'none')
# How a counter reads (cpucycles/options says what each means): an
# instruction of the CPU, one on its thread's own perf event, an OS call.
COUNTER_READS = ('cpu', 'event', 'os')
# Each kind's penalty in the selection, as cpucycles/internal.h names it
# (CPUCYCLES_PENALTY_<this>): configure writes it beside each counter.
KIND_PENALTY = {'core': 'CORE', 'core-kernel': 'OFFCORE', 'offcore': 'OFFCORE',
                'osclock': 'OSCLOCK', 'none': 'NONE'}


class TableError(Exception):
    """A line of a table that does not say what the table needs."""


def counters(src=SRC):
    """cpucycles/options -> [Counter], in the documented order. A counter
    is named <cpu>-<name>, or default-<name> for one that any CPU builds."""
    path = os.path.join(src, 'cpucycles', 'options')
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            fields = line.split('#', 1)[0].split()
            if not fields:
                continue
            where = '%s:%d' % (path, number)
            if len(fields) != 4:
                raise TableError('%s: want "name os kind reads", got %r' % (where, line.strip()))
            name, os_name, kind, reads = fields
            if '-' not in name:
                raise TableError('%s: %s is not named <cpu>-<name>' % (where, name))
            if os_name not in COUNTER_OSES:
                raise TableError('%s: os %s is not one of %s' % (where, os_name, ', '.join(COUNTER_OSES)))
            if kind not in COUNTER_KINDS:
                raise TableError('%s: kind %s is not one of %s' % (where, kind, ', '.join(COUNTER_KINDS)))
            if reads not in COUNTER_READS:
                raise TableError('%s: reads %s is not one of %s' % (where, reads, ', '.join(COUNTER_READS)))
            if name.split('-')[0] not in [h.name for h in HOSTS] + ['default']:
                raise TableError('%s: %s names no host of scripts-build/tables.py HOSTS, nor default'
                                 % (where, name))
            if any(r.name == name for r in rows):
                raise TableError('%s: %s is listed twice' % (where, name))
            rows.append(Counter(name, os_name, kind, reads))
    return rows


# --- hosts ----------------------------------------------------------------

# name:   the short host name (build/<name>, compilers/<name>, counter
#         files <name>-*.c); also what --host accepts.
# cond:   the C condition true only when compiling for it (None for a CPU
#         with no counters of its own: configure then builds default-*).
# cpus:   the CPU parts of GNU triplets, and the machine names of `uname -m`
#         and of upstream's --host, that mean it, matched as prefixes; the
#         longest prefix that matches decides (x86_64 is amd64, not x86;
#         armv8l, a 32-bit userland's name on a 64-bit ARM kernel, is arm32,
#         though upstream's armv8 is arm64).
# qemu:   the qemu-user emulator that runs its programs (None: none does).
# meson:  Meson's cpu_family, for cross files.
# family: another host whose counter files it builds (x32: amd64's).
Host = collections.namedtuple('Host', 'name cond cpus qemu meson family')

HOSTS = [
    Host('amd64', 'defined(__x86_64__) && !defined(__ILP32__)', ('x86_64', 'amd64'),
         'qemu-x86_64', 'x86_64', None),
    # amd64's instruction set with 32-bit pointers; qemu-user has no x32 mode
    Host('x32', 'defined(__x86_64__) && defined(__ILP32__)', ('x32',), None, 'x86_64', 'amd64'),
    Host('x86', 'defined(__i386__)', ('i386', 'i486', 'i586', 'i686', 'x86'),
         'qemu-i386', 'x86', None),
    Host('arm64', 'defined(__aarch64__)', ('aarch64', 'arm64', 'armv8'), 'qemu-aarch64', 'aarch64', None),
    Host('arm32', 'defined(__arm__)', ('arm', 'armv8l'), 'qemu-arm', 'arm', None),
    Host('riscv64', 'defined(__riscv) && __riscv_xlen == 64', ('riscv64',),
         'qemu-riscv64', 'riscv64', None),
    # upstream reads a bare riscv as the 32-bit one
    Host('riscv32', 'defined(__riscv) && __riscv_xlen == 32', ('riscv32', 'riscv'),
         'qemu-riscv32', 'riscv32', None),
    Host('ppc64', 'defined(__powerpc64__)', ('powerpc64', 'ppc64'), 'qemu-ppc64', 'ppc64', None),
    Host('ppc32', 'defined(__powerpc__) && !defined(__powerpc64__)', ('powerpc', 'ppc'),
         'qemu-ppc', 'ppc', None),
    Host('s390x', 'defined(__s390x__)', ('s390x',), 'qemu-s390x', 's390x', None),
    Host('mips64', 'defined(__mips64)', ('mips64',), 'qemu-mips64', 'mips64', None),
    # sparcv9 and sun4u: Solaris' and the BSDs' names of the same CPU
    Host('sparc64', 'defined(__sparc__) && defined(__arch64__)', ('sparc64', 'sparcv9', 'sun4u'),
         'qemu-sparc64', 'sparc64', None),
    # loong64: Debian's name (DEB_HOST_ARCH_CPU), as ppc64el is ppc64's
    Host('loong64', 'defined(__loongarch64)', ('loongarch64', 'loong64'),
         'qemu-loongarch64', 'loongarch64', None),
    # CPUs with no counters of their own: the portable ones (default-*)
    Host('alpha', None, ('alpha',), 'qemu-alpha', 'alpha', None),
    Host('hppa', None, ('hppa',), 'qemu-hppa', 'parisc', None),
    Host('m68k', None, ('m68k',), 'qemu-m68k', 'm68k', None),
    # qemu-sh4 (7.2 and 10.0 alike) cannot run Debian's sh4 C library: a
    # program dies in the dynamic linker's first steps, a static one hangs
    Host('sh4', None, ('sh4',), None, 'sh4', None),
    # 32-bit MIPS (o32): after mips64, whose CPU names begin the same way.
    # MIPS32r2 has a cycle counter (rdhwr $2) that no counter reads yet.
    Host('mips32', None, ('mips',), 'qemu-mips', 'mips', None),
]

# Cross toolchains: the GNU triplet, the Debian architecture of the C
# library it links (libc6-dev-<debarch>-cross; None where Debian has none),
# the host it builds, whether `make test-cross` runs it (in this order),
# the name test-cross gives it (build/cross-<name>, its summary line,
# `test/cross NAME`): the host's, unless another toolchain of the matrix
# builds the same host (the other byte order of a CPU), and the first
# Debian release that ships it (test-cross takes a later release's from a
# chroot of it: test/trixie_cross.py).
Toolchain = collections.namedtuple('Toolchain', 'triplet debarch host matrix name debian',
                                   defaults=(None, 12))

TOOLCHAINS = [
    Toolchain('x86_64-linux-gnu', 'amd64', 'amd64', True),
    Toolchain('i686-linux-gnu', 'i386', 'x86', True),
    Toolchain('aarch64-linux-gnu', 'arm64', 'arm64', True),
    Toolchain('arm-linux-gnueabihf', 'armhf', 'arm32', True),
    Toolchain('arm-linux-gnueabi', 'armel', 'arm32', False),
    Toolchain('riscv64-linux-gnu', 'riscv64', 'riscv64', True),
    Toolchain('powerpc64le-linux-gnu', 'ppc64el', 'ppc64', True),
    Toolchain('powerpc64-linux-gnu', 'ppc64', 'ppc64', True, 'ppc64be'),
    Toolchain('powerpc-linux-gnu', 'powerpc', 'ppc32', True),
    Toolchain('s390x-linux-gnu', 's390x', 's390x', True),
    Toolchain('mips64el-linux-gnuabi64', 'mips64el', 'mips64', True),
    Toolchain('mips64-linux-gnuabi64', 'mips64', 'mips64', False),
    Toolchain('sparc64-linux-gnu', 'sparc64', 'sparc64', True),
    # amd64's counters with 32-bit pointers: built and checked, run only
    # where the kernel has x32 system calls (qemu-user has no x32 mode)
    Toolchain('x86_64-linux-gnux32', 'x32', 'x32', True),
    # 32-bit MIPS in both byte orders: the portable counters
    Toolchain('mips-linux-gnu', 'mips', 'mips32', True),
    Toolchain('mipsel-linux-gnu', 'mipsel', 'mips32', True, 'mips32el'),
    # CPUs without counters of their own: the portable counters alone
    Toolchain('alpha-linux-gnu', 'alpha', 'alpha', True),
    Toolchain('hppa-linux-gnu', 'hppa', 'hppa', True),
    Toolchain('m68k-linux-gnu', 'm68k', 'm68k', True),
    Toolchain('sh4-linux-gnu', 'sh4', 'sh4', True),
    # Debian 13's, from a Debian 13 chroot on Debian 12
    Toolchain('loongarch64-linux-gnu', 'loong64', 'loong64', True, None, 13),
    # no Debian compiler ships a C library for it
    Toolchain('riscv32-linux-gnu', None, 'riscv32', False),
]


def host(name):
    """The HOSTS row of a short name, or None."""
    return next((h for h in HOSTS if h.name == name), None)


def host_of_cpu(cpu):
    """The short name of the host a triplet's CPU part or `uname -m`
    means (the longest of the cpus that it begins with), or None."""
    cpu = cpu.lower()
    found = [(len(p), h.name) for h in HOSTS for p in h.cpus if cpu.startswith(p)]
    return max(found)[1] if found else None


def emulator(name, machine=''):
    """The qemu-user emulator that runs programs of host `name` built by
    the toolchain of GNU triplet `machine`, or None (x32: qemu-user has no
    x32 mode). qemu names the other byte order, or ABI, of some CPUs
    apart, so the triplet decides there. A CPU the table does not know
    tries qemu-<its name>."""
    cpu = machine.split('-')[0]
    little = cpu.endswith('le') or cpu.endswith('el')
    big = cpu.endswith('_be') or cpu.startswith('armeb')
    if name == 'ppc64' and little:
        return 'qemu-ppc64le'
    if name == 'mips64':
        base = 'qemu-mipsn32' if 'abin32' in machine else 'qemu-mips64'
        return base + 'el' if little else base
    if name == 'arm64' and big:
        return 'qemu-aarch64_be'
    if name == 'arm32' and big:
        return 'qemu-armeb'
    if name == 'mips32':
        return 'qemu-mipsel' if little else 'qemu-mips'
    row = host(name)
    if row:
        return row.qemu
    if re.fullmatch(r'[a-z0-9_]+', name):
        return 'qemu-' + name
    return None


def debian_arch(triplet):
    """The Debian architecture of a cross toolchain's C library
    (libc6-dev-<it>-cross), or None."""
    row = toolchain(triplet)
    return row.debarch if row else None


def no_debian_compiler(name):
    """True when Debian packages no cross toolchain for host `name`: every
    toolchain the table lists for it has no Debian architecture."""
    rows = [t for t in TOOLCHAINS if t.host == name]
    return bool(rows) and all(t.debarch is None for t in rows)


def toolchain(triplet):
    """The TOOLCHAINS row of a triplet, or None."""
    return next((t for t in TOOLCHAINS if t.triplet == triplet), None)


def matrix():
    """(name, host, triplet) of every toolchain `make test-cross` runs, in
    order (name: the Toolchain's, else its host's)."""
    return [(t.name or t.host, t.host, t.triplet) for t in TOOLCHAINS if t.matrix]


def cross_packages(native=None):
    """The Debian packages of the matrix's toolchains that this machine's
    release ships: gcc-<triplet> (- for _) and libc6-dev-<arch>-cross,
    leaving out the native host's."""
    import platform
    native = native or host_of_cpu(platform.machine())
    found = []
    for t in TOOLCHAINS:
        if t.matrix and t.debarch and t.debian <= 12 and t.host != native:
            found += ['gcc-' + t.triplet.replace('_', '-'), 'libc6-dev-%s-cross' % t.debarch]
    return found


if __name__ == '__main__':
    # .ci/run's install list for make test-cross
    if sys.argv[1:] != ['cross-packages']:
        sys.stderr.write('usage: python3 scripts-build/tables.py cross-packages\n')
        sys.exit(2)
    print(' '.join(cross_packages()))
