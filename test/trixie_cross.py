# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""trixie_cross.py: cross toolchains that only Debian 13 ships (loong64's),
for test/cross on a Debian 12 machine.

The toolchain is installed into a Debian 13 chroot: test/distros' cached
trixie root file system (test/distros/chroot.py makes it), unpacked once
more into ~/.cache/cpucycles-cross/<host> with the cross compiler, its C
library and Debian 13's qemu-user added. Debian 13's compilers are built
against Debian 13's C library, so they run inside that chroot, not here:
tools() writes small wrappers named like a Debian cross toolchain
(<triplet>-gcc, -nm, ...) that run the real tool in the chroot, in a
private mount namespace (unshare) where the source tree and /tmp are bound
at their own paths. Every path the build hands the compiler thus means the
same file inside and out, and the binds vanish with the process: nothing
stays mounted, whatever happens. Debian 12's qemu-user 7.2 cannot run
what Debian 13's loong64 C library contains (its start-up code uses LSX
vector instructions, which qemu added in 8.1), so qemu comes from the
chroot too: Debian 13's qemu-user programs are static and run here.
Needs root (chroot, mount namespaces)."""
import fcntl
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import time

TEST = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(TEST)

# host -> the Debian 13 packages its toolchain needs
PACKAGES = {
    'loong64': ['gcc-loongarch64-linux-gnu', 'libc6-dev-loong64-cross',
                'binutils-loongarch64-linux-gnu', 'qemu-user'],
}
TOOLS = ['gcc', 'nm', 'ar', 'objcopy', 'ranlib', 'strip', 'readelf', 'objdump']


class Unavailable(Exception):
    """Why this machine cannot provide the toolchain (a skip, not a failure)."""


def cache_dir():
    base = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'cpucycles-cross')


class _Steps:
    """What test/distros/chroot.py asks of a case: a log, sh() and must()."""

    def __init__(self, log):
        self.log = log

    def sh(self, command, cwd, env=None, wrap=None, timeout=3600):
        argv = (wrap or []) + ['/bin/sh', '-c', command]
        self.log.write('\n$ %s\n' % ' '.join(argv))
        self.log.flush()
        p = subprocess.run(argv, cwd=None if wrap else cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=timeout)
        out = p.stdout.decode('utf-8', 'replace')
        self.log.write(out + '[exit status %d]\n' % p.returncode)
        return p.returncode, out

    def must(self, command, cwd, **kw):
        status, out = self.sh(command, cwd, **kw)
        if status != 0:
            raise Unavailable('`%s` in the Debian 13 chroot exited %d' % (command, status))
        return out


def _chroot_module():
    sys.path.insert(0, os.path.join(TEST, 'distros'))
    import chroot  # noqa: E402  (test/distros' Debian 13 chroot)
    return chroot


def _readme_apt_line():
    """README's apt-get line, read as test/distros reads it (the chroot
    test/distros caches is made with it)."""
    spec = importlib.util.spec_from_file_location(
        'distros_main', os.path.join(TEST, 'distros', '__main__.py'))
    distros = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(distros)
    with open(os.path.join(SRC, 'README.md')) as f:
        return distros.readme_try_it(f.read())[0]


def root_for(host, log):
    """The chroot with host's toolchain, made when missing or older than
    CPUCYCLES_DISTROS_MAX_DAYS (14) days. -> its path."""
    if os.geteuid() != 0:
        raise Unavailable('the Debian 13 chroot needs root')
    for tool in ('debootstrap', 'chroot', 'unshare', 'mount'):
        if not shutil.which(tool):
            raise Unavailable('no %s here' % tool)
    chroot = _chroot_module()
    root = os.path.join(cache_dir(), host)
    stamp = os.path.join(root, '.cpucycles-packages')
    want = ' '.join(PACKAGES[host]) + '\n'
    max_age = float(os.environ.get('CPUCYCLES_DISTROS_MAX_DAYS', '14')) * 86400
    os.makedirs(cache_dir(), exist_ok=True)
    with open(os.path.join(cache_dir(), host + '.lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            with open(stamp) as f:
                fresh = f.read() == want and time.time() - os.path.getmtime(stamp) < max_age
        except OSError:
            fresh = False
        if fresh:
            return root
        steps = _Steps(log)
        new = root + '.new'
        if chroot.mounted_under(new):
            raise Unavailable('%s still has mounts from an earlier run' % new)
        shutil.rmtree(new, ignore_errors=True)
        try:
            chroot.chroot_from_cache(steps, _readme_apt_line(), new)
        except chroot.CaseError as e:
            raise Unavailable('no Debian 13 chroot: %s' % e)
        with chroot.Mounts(new, log):
            steps.must('apt-get update && apt-get install -y --no-install-recommends %s && '
                       'apt-get clean' % ' '.join(PACKAGES[host]), '/',
                       wrap=chroot.chroot_argv(new))
        with open(os.path.join(new, '.cpucycles-packages'), 'w') as f:
            f.write(want)
        shutil.rmtree(root, ignore_errors=True)
        os.rename(new, root)
    return root


WRAPPER = '''#!/bin/sh
# {tool} of Debian 13, run in its chroot (made by test/trixie_cross.py)
exec unshare --mount --propagation private /bin/sh -c '
root=$1 tool=$2; shift 2
while [ "$1" != -- ]; do
  mkdir -p "$root$1" && mount --rbind "$1" "$root$1" || exit 125
  shift
done
shift
exec chroot "$root" /bin/sh -c "cd \\"\\$0\\" && exec \\"\\$@\\"" "$PWD" "$tool" "$@"
' sh {root} /usr/bin/{tool} {binds} -- "$@"
'''


def tools(host, triplet, qemu, log):
    """-> (directory to put first on PATH, QEMU_LD_PREFIX): wrappers for
    triplet's tools, and Debian 13's qemu-user emulator `qemu`."""
    root = root_for(host, log)
    bindir = os.path.join(SRC, 'build', 'cross-tools', host)
    shutil.rmtree(bindir, ignore_errors=True)
    os.makedirs(bindir)
    binds = ' '.join(shlex.quote(d) for d in sorted({'/tmp', SRC}))
    for tool in TOOLS:
        name = '%s-%s' % (triplet, tool)
        if not os.path.exists(os.path.join(root, 'usr', 'bin', name)):
            continue
        path = os.path.join(bindir, name)
        with open(path, 'w') as f:
            f.write(WRAPPER.format(tool=name, root=shlex.quote(root), binds=binds))
        os.chmod(path, 0o755)
    if not os.path.exists(os.path.join(root, 'usr', 'bin', qemu)):
        raise Unavailable('Debian 13 has no %s' % qemu)
    os.symlink(os.path.join(root, 'usr', 'bin', qemu), os.path.join(bindir, qemu))
    return bindir, os.path.join(root, 'usr', triplet)


def main(argv):
    """python3 test/trixie_cross.py --prepare [HOST...]: each host's chroot
    (all of PACKAGES' by default) made now, when test-cross would make it
    first; a line each, and exit 1 when one cannot be made. .ci/run has it
    done while README's commands run."""
    if not argv or argv[0] != '--prepare':
        sys.stderr.write('usage: python3 test/trixie_cross.py --prepare [HOST...]\n')
        return 2
    failed = 0
    for host in argv[1:] or sorted(PACKAGES):
        if host not in PACKAGES:
            print('trixie_cross: %s: not a host of Debian 13 alone (%s)' % (host, ' '.join(PACKAGES)))
            failed += 1
            continue
        with open(os.devnull, 'w') as log:
            try:
                print('trixie_cross: %s: %s' % (host, root_for(host, log)))
            except Unavailable as e:
                print('trixie_cross: %s: not made: %s' % (host, e))
                failed += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
