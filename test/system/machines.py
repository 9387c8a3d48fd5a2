# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""machines.py: the guests of `make test-system`, one row each.

Adding an architecture is adding a row: which Debian release its kernel
and busybox come from, the qemu command line that boots it and the
kernel's console there; 'refused', where the kernel refuses a counter
that the CPU has, says how the refusal shows (test/system/run checks
that the library's guard takes it); 'why', what cpucycles-info's `why`
line of a counter must say in each scenario (test/system/run checks it):
its code and a phrase the line must hold, or None where the counter must
work (no why line, precision above 0); '*' stands for every scenario. The cross compiler that builds the
suite and the Debian architecture of its packages are the host's
toolchain of make test-cross (scripts-build/tables.py), filled in below
as 'triplet' and 'debarch'.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tools  # noqa: E402

# Options every guest gets: one CPU, no network, no reboot on panic (qemu
# exits instead), the serial console on qemu's standard input and output.
COMMON = ['-smp', '1', '-m', '512', '-no-reboot', '-nographic', '-nic', 'none']

# Kernel command line: panic=-1 reboots at once on a panic, which
# -no-reboot turns into qemu exiting; quiet keeps the kernel's messages off
# the console the agent speaks on (they are still in the guest's dmesg).
APPEND = 'panic=-1 rdinit=/init quiet loglevel=1'

# Debian's kernels refuse every perf event to a process without
# CAP_PERFMON or CAP_SYS_ADMIN at their default kernel.perf_event_paranoid,
# 3, until cpucycles-open lowers it to 2 (its first scenario, 'open:
# root'). The scenarios (test/system/run): 'root pua=0', 'user pua=0',
# 'root pua=1', 'user pua=1' where the kernel has perf_user_access, else
# 'root' and 'user'; then 'open: root' and 'open: user'.
PARANOID = ('perf-paranoid', 'kernel.perf_event_paranoid is 3')


def _users(root, user, opened_user=None):
    """A counter's expectations by user: root's in the scenarios before
    cpucycles-open, the user's before it, and after it root's for both
    (or opened_user's for the user)."""
    opened_user = root if opened_user is None else opened_user
    return {'root': root, 'root pua=0': root, 'root pua=1': root, 'user': user,
            'user pua=0': user, 'user pua=1': user, 'open: root': root,
            'open: user': opened_user}


# A PMU that cannot leave the kernel out: the user's event counts the
# kernel too, which paranoid 2 (cpucycles-open's) refuses.
OPEN_USER_KERNEL = ('perf-paranoid', 'cannot leave the kernel out')


MACHINES = {
    'arm64': {
        'suite': 'bookworm',
        'kernel': 'linux-image-arm64', 'image': 'boot/vmlinu[xz]-*',
        # without pauth-impdef, pointer authentication is emulated with the
        # architected algorithm and the boot takes six times longer
        'qemu': ['qemu-system-aarch64', '-M', 'virt', '-cpu', 'max,pauth-impdef=on'],
        'console': 'ttyAMA0',
        # qemu's PMUv3 counts cycles; Linux 6.1 has perf_user_access, so
        # the PMU read without an event is not for it, and the event's
        # page names PMCCNTR_EL0 only at perf_user_access 1
        'why': {
            'arm64-perfpmc': dict(_users(None, PARANOID), **{
                'root pua=0': ('user-access-off', 'sysctl kernel.perf_user_access=1')}),
            'arm64-pmc': {'*': ('not-this-system', 'kernel.perf_user_access is')},
            'default-perfevent': _users(None, PARANOID),
            'arm64-vct': {'*': None},
            'default-zero': {'*': ('no-clock', 'no clock')},
        },
    },
    'riscv64': {
        # Debian 12 has no riscv64 port; 13 ships 6.12
        'suite': 'trixie',
        'kernel': 'linux-image-riscv64', 'image': 'boot/vmlinu[xz]-*',
        'qemu': ['qemu-system-riscv64', '-M', 'virt', '-cpu', 'rv64',
                 '-bios', '/usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin'],
        'console': 'ttyS0',
        # Linux 6.12 opens the cycle CSR to a thread with its own mapped
        # event at perf_user_access 1, to every thread only at 2. qemu's
        # SBI PMU cannot count user mode alone (EINVAL), and counting the
        # kernel too takes paranoid 1: a user is refused even after
        # cpucycles-open's 2
        'why': {
            'riscv64-perfrdcycle': dict(_users(None, PARANOID, OPEN_USER_KERNEL), **{
                'root pua=0': ('user-access-off', 'sysctl kernel.perf_user_access=1')}),
            'riscv64-rdcycle': {'*': ('fault-sigill', 'sysctl kernel.perf_user_access=2')},
            'default-perfevent': _users(None, PARANOID, OPEN_USER_KERNEL),
            'default-zero': {'*': ('no-clock', 'no clock')},
        },
    },
    'ppc64': {
        'suite': 'bookworm',
        'kernel': 'linux-image-powerpc64le', 'image': 'boot/vmlinu[xz]-*',
        # x-vof skips the slow firmware; the cap-* settings silence the
        # speculation mitigations TCG cannot provide; without -vga none the
        # console goes to a display nobody reads
        'qemu': ['qemu-system-ppc64', '-M', 'pseries,x-vof=on,cap-cfpc=broken,cap-sbbc=broken,'
                 'cap-ibs=broken,cap-ccf-assist=off', '-cpu', 'power9', '-vga', 'none'],
        'console': 'hvc0',
    },
    'amd64': {
        'suite': 'bookworm',
        'kernel': 'linux-image-cloud-amd64', 'image': 'boot/vmlinu[xz]-*',
        'qemu': ['qemu-system-x86_64', '-M', 'q35', '-accel', 'tcg', '-cpu', 'max', '-vga', 'none'],
        'console': 'ttyS0',
        # TCG emulates no x86 PMU: no cycle event, no rdpmc file
        'why': {
            'amd64-perfpmcff': _users(('perf-noevent', 'nothing inside this machine'), PARANOID),
            'amd64-perfpmc': _users(('perf-noevent', 'nothing inside this machine'), PARANOID),
            # refused on the kernel's kept ENOENT; after an EACCES, which
            # is not kept, it finds no rdpmc file
            'amd64-pmcff': _users(('perf-noevent', 'not asked again'),
                                  ('rdpmc-closed', '/sys/devices/cpu/rdpmc does not exist')),
            'default-perfevent': _users(('perf-noevent', 'nothing inside this machine'),
                                        PARANOID),
            'amd64-tsc': {'*': None},
            'default-zero': {'*': ('no-clock', 'no clock')},
        },
    },
    'mips64': {
        'suite': 'bookworm',
        'kernel': 'linux-image-5kc-malta', 'image': 'boot/vmlinu[xz]-*',
        'qemu': ['qemu-system-mips64el', '-M', 'malta', '-cpu', 'MIPS64R2-generic'],
        'console': 'ttyS0',
    },
    'arm32': {
        'suite': 'bookworm',
        'kernel': 'linux-image-armmp-lpae', 'image': 'boot/vmlinu[xz]-*',
        # qemu's cortex-a15 has the PMU (PMCCNTR exists); the kernel leaves
        # user access to it off, and the virt board describes no v7 PMU,
        # so no perf cycles event either
        'qemu': ['qemu-system-arm', '-M', 'virt', '-cpu', 'cortex-a15'],
        'console': 'ttyAMA0',
        # the counter this kernel refuses, and how the refusal looks: the
        # signal and the faulting instruction word, as (mask, value) pairs
        # (mrc p15, 0, Rt, c9, c13, 0 in A32 and in T32, whose two
        # halfwords a little-endian word read holds swapped), any Rt
        'refused': {'counter': 'arm32-cortex', 'signal': 4, 'what': 'PMCCNTR read',
                    'insn': [(0x0FFF0FFF, 0x0E190F1D), (0x0FFFFFFF, 0x0F1DEE19)]},
        # no PMU in the board's description: no cycle event either, and
        # only a kernel module could open PMCCNTR to user mode
        'why': {
            'arm32-cortex': {'*': ('fault-sigill', 'only a kernel module')},
            'arm32-1176': {'*': ('fault-sigill', 'only a kernel module')},
            'default-perfevent': _users(('perf-noevent', 'nothing inside this machine'),
                                        PARANOID),
            'default-zero': {'*': ('no-clock', 'no clock')},
        },
    },
    'x86': {
        'suite': 'bookworm',
        'kernel': 'linux-image-686', 'image': 'boot/vmlinu[xz]-*',
        'qemu': ['qemu-system-i386', '-M', 'pc', '-accel', 'tcg', '-cpu', 'max', '-vga', 'none'],
        'console': 'ttyS0',
    },
    's390x': {
        'suite': 'bookworm',
        'kernel': 'linux-image-s390x', 'image': 'boot/vmlinu[xz]-*',
        'qemu': ['qemu-system-s390x', '-M', 's390-ccw-virtio', '-cpu', 'max'],
        'console': 'ttysclp0',
    },
}

# The longest guest first, so that the last one does not run alone for
# long: in .ci/run on 2026-11-27 (2-core VM) mips64 took 209 s, riscv64
# 170, s390x 136, arm64 117, amd64 107, ppc64 106, arm32 105 and x86 77,
# 569 s in all two at a time in the order before (arm64 riscv64 ppc64
# amd64 mips64 arm32 x86 s390x, s390x alone at the end); in this order the
# same times end at 518 s, and a run right after took 418 s for the
# guests (mips64 160 s, riscv64 143, arm64 109).
ORDER = ['mips64', 'riscv64', 's390x', 'arm64', 'amd64', 'ppc64', 'arm32', 'x86']
# What a plain run boots: every guest but those run by hand for now.
DEFAULT = [arch for arch in ORDER if 'by_hand' not in MACHINES[arch]]


def _from_tables():
    tables = tools.tables()
    for arch, machine in MACHINES.items():
        chain = next(t for t in tables.TOOLCHAINS if t.host == arch and t.matrix)
        machine['triplet'], machine['debarch'] = chain.triplet, chain.debarch


_from_tables()
