# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""pe.py: what make test-windows reads of a Windows program or DLL,
straight from the file, so that no tool for each CPU (objdump knows no
arm64 PE in Debian 12's binutils) is needed.

PE facts used (Microsoft's PE/COFF specification): the DOS header holds
the offset of the 'PE\\0\\0' signature at 0x3c; the COFF header after it
holds the machine (0x8664 x86-64, 0x14c x86, 0xaa64 arm64), the number of
sections, the optional header's size and the characteristics (0x2000: a
DLL); the optional header starts with its magic (0x10b PE32, 0x20b PE32+)
and ends with the data directories (RVA, size), the export table first
and the import table second; the section table maps RVAs to file offsets.
"""
import struct

MACHINE = {'amd64': 0x8664, 'x86': 0x14c, 'arm64': 0xaa64}
MAGIC = {'amd64': 0x20b, 'x86': 0x10b, 'arm64': 0x20b}
DLL_FLAG = 0x2000


class NotPE(Exception):
    """The file is not a PE image, or not one this reader understands."""


class Image:
    """One PE file: machine, magic, is_dll, exports (names), imports
    (DLL names as written)."""

    def __init__(self, path):
        with open(path, 'rb') as f:
            self.data = f.read()
        d = self.data
        if d[:2] != b'MZ' or len(d) < 0x40:
            raise NotPE('%s: no MZ header' % path)
        pe = struct.unpack_from('<I', d, 0x3c)[0]
        if d[pe:pe + 4] != b'PE\0\0':
            raise NotPE('%s: no PE signature' % path)
        coff = pe + 4
        self.machine, nsections, _, _, _, opt_size, flags = struct.unpack_from('<HHIIIHH', d, coff)
        self.is_dll = bool(flags & DLL_FLAG)
        opt = coff + 20
        self.magic = struct.unpack_from('<H', d, opt)[0]
        # where the count of data directories sits, then the directories
        count_at = opt + (92 if self.magic == 0x10b else 108)
        ndirs = struct.unpack_from('<I', d, count_at)[0]
        self.dirs = [struct.unpack_from('<II', d, count_at + 4 + 8 * i) for i in range(min(ndirs, 16))]
        table = opt + opt_size
        self.sections = []
        for i in range(nsections):
            _, vsize, vaddr, rsize, raw = struct.unpack_from('<8sIIII', d, table + 40 * i)
            self.sections.append((vaddr, max(vsize, rsize), raw))
        self.exports = self._exports()
        self.imports = self._imports()

    def offset(self, rva):
        for vaddr, size, raw in self.sections:
            if vaddr <= rva < vaddr + size:
                return raw + rva - vaddr
        raise NotPE('RVA 0x%x is in no section' % rva)

    def string(self, rva):
        at = self.offset(rva)
        return self.data[at:self.data.index(b'\0', at)].decode('ascii', 'replace')

    def _exports(self):
        if not self.dirs or not self.dirs[0][0]:
            return []
        at = self.offset(self.dirs[0][0])
        # the export directory: number of names at 24, their RVAs' table at 32
        nnames = struct.unpack_from('<I', self.data, at + 24)[0]
        names_rva = struct.unpack_from('<I', self.data, at + 32)[0]
        names_at = self.offset(names_rva) if nnames else 0
        return [self.string(struct.unpack_from('<I', self.data, names_at + 4 * i)[0])
                for i in range(nnames)]

    def _imports(self):
        if len(self.dirs) < 2 or not self.dirs[1][0]:
            return []
        at, found = self.offset(self.dirs[1][0]), []
        while True:
            lookup, _, _, name, thunks = struct.unpack_from('<IIIII', self.data, at)
            if not (lookup or name or thunks):
                return found
            found.append(self.string(name))
            at += 20


def read(path):
    """-> Image, or None when path is no PE file this reader understands."""
    try:
        return Image(path)
    except (OSError, NotPE, struct.error, ValueError):
        return None


def is_cpu(image, cpu):
    return image is not None and image.machine == MACHINE[cpu] and image.magic == MAGIC[cpu]
