# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""initramfs.py: the guest's root file system, as a newc cpio archive.

It holds busybox, the agent (test/system/init), the target's C library
taken from the cross compiler's sysroot, and the programs of a build tree
at the same absolute path they have on this machine: test programs carry
absolute paths (library-shared's rpath, open's path to cpucycles-open),
and this keeps them true in the guest. Written here rather than with
cpio(1) so that every file is root's and the console device exists
without mknod on the host.
"""
import os
import re
import stat
import subprocess

PASSWD = ('root:x:0:0:root:/root:/bin/sh\n'
          'user:x:1000:1000:unprivileged tester:/home/user:/bin/sh\n'
          'nobody:x:65534:65534:nobody:/nonexistent:/bin/false\n')
GROUP = 'root:x:0:\nuser:x:1000:\nnogroup:x:65534:\n'


class Cpio:
    def __init__(self):
        self.chunks, self.ino, self.seen = [], 1, set()

    def entry(self, name, mode, data=b'', rdev=(0, 0)):
        name = name.lstrip('/')
        if name in self.seen:
            return
        self.seen.add(name)
        fields = [self.ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1],
                  len(name) + 1, 0]
        self.ino += 1
        head = b'070701' + b''.join(b'%08X' % v for v in fields) + name.encode() + b'\0'
        self.chunks.append(head + b'\0' * (-len(head) % 4))
        self.chunks.append(data + b'\0' * (-len(data) % 4))

    def dirs(self, path):
        parts = path.strip('/').split('/')[:-1]
        for i in range(1, len(parts) + 1):
            self.entry('/'.join(parts[:i]), stat.S_IFDIR | 0o755)

    def file(self, path, data, mode=0o644):
        self.dirs(path)
        self.entry(path, stat.S_IFREG | mode, data)

    def copy(self, path, host_path=None):
        """A host file or symlink at path (by default the same path)."""
        host_path = host_path or path
        self.dirs(path)
        if os.path.islink(host_path):
            self.entry(path, stat.S_IFLNK | 0o777, os.readlink(host_path).encode())
        else:
            with open(host_path, 'rb') as f:
                # anyone's to read and, if a program, to run: the guest's
                # user runs the suite, and a build made under umask 077
                # (a private checkout's) is its owner's alone
                mode = 0o755 if os.stat(host_path).st_mode & 0o100 else 0o644
                self.entry(path, stat.S_IFREG | mode, f.read())

    def symlink(self, path, target):
        self.dirs(path)
        self.entry(path, stat.S_IFLNK | 0o777, target.encode())

    def tree(self, root):
        self.dirs(root + '/x')
        for top, dirs, files in os.walk(root):
            dirs.sort()
            self.entry(top, stat.S_IFDIR | 0o755)
            for name in sorted(files):
                self.copy(os.path.join(top, name))

    def bytes(self):
        self.entry('TRAILER!!!', 0)
        return b''.join(self.chunks)


def elf_needs(readelf, path):
    """-> (interpreter or None, [NEEDED names])"""
    p = subprocess.run([readelf, '-ld', path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.decode('utf-8', 'replace')
    interp = re.search(r'Requesting program interpreter: ([^\]]+)\]', out)
    return (interp.group(1) if interp else None,
            re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', out))


def libc_files(triplet, programs, readelf):
    """The loader and the shared libraries the programs need, found in the
    cross sysroot (/usr/<triplet>/lib*) or, for this machine's own
    architecture, in /lib/<triplet>. -> {guest path: host path}"""
    search = ['/usr/%s/lib' % triplet, '/usr/%s/lib64' % triplet, '/lib/%s' % triplet,
              '/usr/lib/%s' % triplet]
    found, todo, done = {}, list(programs), set()
    # glibc loads libgcc_s when a thread is cancelled (to unwind it), and
    # aborts without it: once.c cancels a thread mid-selection
    for d in search:
        if os.path.exists(os.path.join(d, 'libgcc_s.so.1')):
            found['/lib/libgcc_s.so.1'] = os.path.join(d, 'libgcc_s.so.1')
            break
    while todo:
        path = todo.pop()
        interp, needed = elf_needs(readelf, path)
        if interp and interp not in found:
            host = next((os.path.join(d, os.path.basename(interp)) for d in search
                         if os.path.exists(os.path.join(d, os.path.basename(interp)))), None)
            if host is None:
                raise RuntimeError('no %s for %s in %s' % (interp, triplet, search))
            found['/lib/' + os.path.basename(interp)] = host  # /lib64 leads to /lib
            todo.append(host)
        for name in needed:
            if name in done or name.startswith('libcpucycles'):
                continue
            done.add(name)
            host = next((os.path.join(d, name) for d in search
                         if os.path.exists(os.path.join(d, name))), None)
            if host is None:
                raise RuntimeError('no %s for %s in %s' % (name, triplet, search))
            found['/lib/%s' % name] = host
            todo.append(host)
    return found


def build(out, busybox, init, trees, triplet, readelf):
    """Writes the archive to out. trees: absolute host directories copied
    to the same path (the build tree's package/ and test/bin/)."""
    c = Cpio()
    for d in ['dev', 'proc', 'sys', 'tmp', 'root', 'etc', 'bin', 'sbin', 'usr', 'lib', 'home']:
        c.entry(d, stat.S_IFDIR | 0o755)
    c.entry('dev/console', stat.S_IFCHR | 0o600, rdev=(5, 1))
    c.entry('dev/null', stat.S_IFCHR | 0o666, rdev=(1, 3))
    c.copy('bin/busybox', busybox)
    c.symlink('bin/sh', 'busybox')
    c.file('init', open(init, 'rb').read(), 0o755)
    c.file('etc/passwd', PASSWD.encode())
    c.file('etc/group', GROUP.encode())
    c.symlink('lib64', 'lib')
    c.symlink('lib/%s' % triplet, '.')
    c.symlink('usr/lib', '../lib')
    c.symlink('usr/lib64', '../lib')
    programs = []
    for root in trees:
        c.tree(root)
        for top, _, files in os.walk(root):
            for name in files:
                path = os.path.join(top, name)
                with open(path, 'rb') as f:
                    if f.read(4) == b'\x7fELF' and not os.path.islink(path):
                        programs.append(path)
    for guest, host in sorted(libc_files(triplet, programs, readelf).items()):
        c.copy(guest, os.path.realpath(host))
    with open(out + '.tmp', 'wb') as f:
        f.write(c.bytes())
    os.replace(out + '.tmp', out)
