# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""sources.py: which files of cpucycles/ and command/ each operating system
builds besides the counters, said once. configure writes the lists into
config.mk and, rule by rule, into the Makefile every make runs
(portable.py).

Import it after setting sys.dont_write_bytecode (see tables.py)."""
import collections

# core:   the library's files (cpucycles/<name>.c) besides the counters, in
#         link order.
# info:   cpucycles-info's parts beside its main (command/<name>.c).
# bins:   the OS's programs of its own (command/<name>.c, linked alone).
# binary: the format of its objects and libraries, which says how they
#         link (portable.py's BINARIES): elf, macho or pe.
OsFiles = collections.namedtuple('OsFiles', 'core info bins binary')

# What every system's library has, in link order; GUARD and PREBOUND are
# the signal guard (with copies, its protocol among copies of the library
# in one process) and the pointers to libc's functions, which Windows
# replaces (its exception guard needs neither).
COMMON = ['api', 'select', 'rate', 'scale', 'extend32', 'anchor', 'GUARD', 'osclock', 'parse',
          'cpuinfo', 'persecond', 'readfile', 'chosen', 'chosen32', 'PREBOUND', 'why', 'tscrate']
INFO = ['words', 'sysfile', 'cpus', 'x86id', 'trust', 'trustfreq', 'trusttopo', 'trustkernel',
        'crosscore', 'crossreport']


def _core(extra, guard=('guard', 'copies'), prebound=('prebound',)):
    names = []
    for n in COMMON:
        names += {'GUARD': list(guard), 'PREBOUND': list(prebound)}.get(n, [n])
    return names + extra


# os-silent: the answers of an OS that states nothing about the counters
# (cpucycles/os.h); sysctl: a number the kernel gives by name.
OSES = {
    'linux': OsFiles(_core(['os-linux', 'os-linux-why', 'perf']), INFO, ['cpucycles-open'], 'elf'),
    'posix': OsFiles(_core(['os-posix', 'os-silent']), INFO, [], 'elf'),
    # the CPUs, pinning and timecounter lines of cpucycles-info, from
    # cpuset(2) and sysctl
    'freebsd': OsFiles(_core(['os-freebsd', 'sysctl']), INFO + ['cpusbsd', 'trustbsd'], [], 'elf'),
    'macos': OsFiles(_core(['os-macos', 'os-silent', 'sysctl']), INFO, [], 'macho'),
    # The cross-core measurement's threads are POSIX threads, which MinGW
    # gets from winpthread's DLL: cpucycles-info says it is not here.
    'windows': OsFiles(_core(['os-windows', 'os-silent'], guard=('guard-windows',), prebound=()),
                       INFO[:-2], [], 'pe'),
}
