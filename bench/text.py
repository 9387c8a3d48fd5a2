# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""text.py LIBRARY: the size of the shared library's code (its .text
section) and unwind tables (.eh_frame), read from the ELF section
headers, for `make bench`. The target (12 KB of .text) is x86-64's, the
machine the library's size was set against; other hosts get the figures
alone. A file that is not ELF (a macOS dylib) gets a line saying so."""

import struct
import sys

TARGET = {62: 12288}  # e_machine EM_X86_64


def sections(data):
    """{name: size} from the section headers, or None when not ELF."""
    if data[:4] != b'\x7fELF' or data[4] not in (1, 2) or data[5] not in (1, 2):
        return None, None
    wide, order = data[4] == 2, '<' if data[5] == 1 else '>'
    machine = struct.unpack_from(order + 'H', data, 18)[0]
    if wide:
        shoff, = struct.unpack_from(order + 'Q', data, 40)
        shentsize, shnum, shstrndx = struct.unpack_from(order + 'HHH', data, 58)
        entry = lambda i: struct.unpack_from(order + 'IIQQQQ', data, shoff + i * shentsize)
    else:
        shoff, = struct.unpack_from(order + 'I', data, 32)
        shentsize, shnum, shstrndx = struct.unpack_from(order + 'HHH', data, 46)
        entry = lambda i: struct.unpack_from(order + 'IIIIII', data, shoff + i * shentsize)
    names_at = entry(shstrndx)[4]
    found = {}
    for i in range(shnum):
        name_off, _, _, _, _, size = entry(i)
        start = names_at + name_off
        name = data[start:data.index(b'\0', start)].decode('ascii', 'replace')
        found[name] = size
    return machine, found


def main(argv):
    if len(argv) != 2:
        sys.stderr.write('usage: text.py LIBRARY\n')
        return 2
    try:
        with open(argv[1], 'rb') as f:
            data = f.read()
        machine, found = sections(data)
    except (OSError, struct.error, ValueError) as e:
        sys.stderr.write('text.py: %s: %s\n' % (argv[1], e))
        return 1
    if found is None or '.text' not in found:
        print('library code: %s is not ELF; its size is not measured here\n' % argv[1])
        print('bench text=unknown')
        return 0
    text, unwind = found['.text'], found.get('.eh_frame', 0)
    print('library code: .text %d bytes, .eh_frame %d bytes (the shared library)\n' % (text, unwind))
    print('bench text=%d eh-frame=%d unit=bytes' % (text, unwind))
    if machine in TARGET:
        print('bench target=text size=%d limit=%d met=%s unit=bytes'
              % (text, TARGET[machine], 'yes' if text <= TARGET[machine] else 'no'))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
