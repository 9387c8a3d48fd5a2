# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""machines.py: the guests of `make test-system`, one row each.

Adding an architecture is adding a row: which Debian release its kernel
and busybox come from, and the qemu command line that boots it. The
cross compiler that builds the suite and the Debian architecture of its
packages are the host's toolchain of make test-cross
(scripts-build/tables.py), filled in below as 'triplet' and 'debarch'.
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

MACHINES = {
    'arm64': {
        'suite': 'bookworm',
        'kernel': 'linux-image-arm64', 'image': 'boot/vmlinu[xz]-*',
        # without pauth-impdef, pointer authentication is emulated with the
        # architected algorithm and the boot takes six times longer
        'qemu': ['qemu-system-aarch64', '-M', 'virt', '-cpu', 'max,pauth-impdef=on'],
        'console': 'ttyAMA0',
    },
    'riscv64': {
        # Debian 12 has no riscv64 port; 13 ships 6.12
        'suite': 'trixie',
        'kernel': 'linux-image-riscv64', 'image': 'boot/vmlinu[xz]-*',
        'qemu': ['qemu-system-riscv64', '-M', 'virt', '-cpu', 'rv64',
                 '-bios', '/usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin'],
        'console': 'ttyS0',
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
    },
    'mips64': {
        'suite': 'bookworm',
        'kernel': 'linux-image-5kc-malta', 'image': 'boot/vmlinu[xz]-*',
        'qemu': ['qemu-system-mips64el', '-M', 'malta', '-cpu', 'MIPS64R2-generic'],
        'console': 'ttyS0',
    },
}

ORDER = ['arm64', 'riscv64', 'ppc64', 'amd64', 'mips64']


def _from_tables():
    tables = tools.tables()
    for arch, machine in MACHINES.items():
        chain = next(t for t in tables.TOOLCHAINS if t.host == arch and t.matrix)
        machine['triplet'], machine['debarch'] = chain.triplet, chain.debarch


_from_tables()
