# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""chroot.py: a Debian 13 root file system for test/distros: made once
with debootstrap (--variant=minbase, from the archive this machine's apt
uses, verified with its keyring), kept as a tar file in the cache, and
unpacked fresh for each run; /proc, /sys and /dev mounted while it runs."""
import concurrent.futures
import fcntl
import os
import shutil
import subprocess
import sys
import time

from case import CONFIGURE_CHECKS, CaseError, Skip, clean_copy, SRC

sys.path.insert(0, os.path.join(SRC, 'test', 'system'))
import fetch  # noqa: E402  (the archive this machine's apt uses)

SUITE = 'trixie'
# debootstrap's own name for Debian 13, tried first; the alias serves
# where a mirror's trixie index is inconsistent (seen by test/system).
SUITE_NAMES = [SUITE, 'stable']
CHROOT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
NOBODY = '65534:65534'  # nobody:nogroup in every Debian release


def cache_dir():
    if os.environ.get('CPUCYCLES_DISTROS_CACHE'):
        return os.environ['CPUCYCLES_DISTROS_CACHE']
    base = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'cpucycles-distros')


def mounted_under(path):
    """Mount points at or below path (from /proc/self/mountinfo)."""
    found = []
    with open('/proc/self/mountinfo') as f:
        for line in f:
            point = line.split()[4].replace('\\040', ' ')
            if point == path or point.startswith(path.rstrip('/') + '/'):
                found.append(point)
    return found


class Mounts:
    """/proc, /sys and /dev inside a chroot, unmounted on the way out
    whatever happened (a deletion of the chroot must never reach them)."""

    def __init__(self, root, log):
        self.root, self.log = root, log

    def __enter__(self):
        try:
            for what, argv in [('proc', ['-t', 'proc', 'proc']),
                               ('sys', ['--rbind', '/sys']), ('dev', ['--rbind', '/dev'])]:
                point = os.path.join(self.root, what)
                os.makedirs(point, exist_ok=True)
                subprocess.run(['mount'] + argv + [point], check=True)
                if what != 'proc':
                    # unmounting our view must not unmount the machine's
                    subprocess.run(['mount', '--make-rslave', point], check=True)
        except (subprocess.CalledProcessError, OSError) as e:
            self.__exit__()
            raise CaseError('cannot mount /proc, /sys, /dev in the chroot: %s' % e)
        return self

    def __exit__(self, *exc):
        for point in sorted(mounted_under(self.root), key=len, reverse=True):
            if subprocess.run(['umount', point], stderr=subprocess.DEVNULL).returncode != 0:
                subprocess.run(['umount', '-l', point], stderr=subprocess.DEVNULL)
        left = mounted_under(self.root)
        if left:
            self.log.write('still mounted: %s\n' % left)
            raise CaseError('could not unmount %s' % left)


def chroot_argv(root, user=None, env=None):
    argv = ['chroot'] + (['--userspec=' + user] if user else []) + [root]
    return argv + ['/usr/bin/env', '-i', 'PATH=' + CHROOT_PATH, 'LANG=C.UTF-8',
                   'DEBIAN_FRONTEND=noninteractive',
                   'HOME=' + ('/tmp/user' if user else '/root')] + \
        ['%s=%s' % kv for kv in sorted((env or {}).items())]


def copy_resolver(root):
    if os.path.exists('/etc/resolv.conf'):
        target = os.path.join(root, 'etc', 'resolv.conf')
        if os.path.lexists(target):
            os.remove(target)
        shutil.copy('/etc/resolv.conf', target)


def make_chroot(case, apt_line, tarball):
    """debootstrap --variant=minbase Debian 13 into the cache, README's
    apt-get line and man-db in it, then kept as one tar file."""
    root = tarball + '.new'
    if mounted_under(root):
        raise CaseError('%s still has mounts from an earlier run' % root)
    shutil.rmtree(root, ignore_errors=True)
    uri = fetch.archive_uri()
    errors = []
    for name in SUITE_NAMES:
        status, out = case.sh('debootstrap --variant=minbase --keyring=%s %s %s %s'
                              % (fetch.KEYRING, name, root, uri), '/')
        if status == 0:
            break
        errors.append('debootstrap %s exited %d' % (name, status))
        shutil.rmtree(root, ignore_errors=True)
    else:
        raise CaseError('; '.join(errors))
    copy_resolver(root)
    with Mounts(root, case.log):
        for line in (apt_line, 'apt-get install -y man-db', 'apt-get clean'):
            case.must(line, '/', wrap=chroot_argv(root))
    subprocess.run(['tar', '-cf', tarball + '.tmp', '--numeric-owner', '-C', root, '.'],
                   check=True)
    os.replace(tarball + '.tmp', tarball)
    shutil.rmtree(root)


def cached_chroot(case, apt_line, then=None):
    """The cached tar of the chroot, made first when there is none or it is
    older than CPUCYCLES_DISTROS_MAX_DAYS (14); then(tarball), if given,
    runs before another run may make it anew."""
    cache = cache_dir()
    os.makedirs(cache, exist_ok=True)
    tarball = os.path.join(cache, SUITE + '.tar')
    max_age = float(os.environ.get('CPUCYCLES_DISTROS_MAX_DAYS', '14')) * 86400
    with open(os.path.join(cache, SUITE + '.lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one debootstrap at a time
        if not os.path.exists(tarball) or time.time() - os.path.getmtime(tarball) > max_age:
            case.log.write('making the %s chroot in %s\n' % (SUITE, tarball))
            make_chroot(case, apt_line, tarball)
        if then:
            then(tarball)
    return tarball


def chroot_from_cache(case, apt_line, dest):
    """A fresh chroot in dest from the cached tar (cached_chroot)."""
    def unpack(tarball):
        os.makedirs(dest)
        subprocess.run(['tar', '-xpf', tarball, '--numeric-owner', '-C', dest], check=True)
    cached_chroot(case, apt_line, unpack)
    copy_resolver(dest)


def cases_trixie(cases, readme):
    """trixie as root and trixie-user, side by side in one fresh chroot,
    each in a source tree of its own."""
    root_case, user_case = cases
    first = root_case or user_case
    if os.geteuid() != 0:
        raise Skip('the chroot needs root')
    for tool in ('debootstrap', 'chroot', 'mount'):
        if not shutil.which(tool):
            raise Skip('no %s (apt-get install debootstrap)' % tool)
    if not os.path.exists(fetch.KEYRING):
        raise Skip('no %s (debian-archive-keyring)' % fetch.KEYRING)
    apt_line, commands = readme
    root = os.path.join(first.dir, 'root')
    chroot_from_cache(first, apt_line, root)
    with Mounts(root, first.log):
        # README's root part, as README says, on the cached chroot: it
        # brings README's packages up to date with the archive
        first.must(apt_line, '/', wrap=chroot_argv(root))
        runs = []
        if root_case:
            clean_copy(os.path.join(root, 'root', 'src'))
            # the configure checks run as trixie-user, unprivileged
            runs.append(lambda: root_case.readme(
                '/root/src', commands,
                wrap=chroot_argv(root, env=CONFIGURE_CHECKS if user_case else None)))
        if user_case:
            home = os.path.join(root, 'tmp', 'user')
            clean_copy(os.path.join(home, 'src'))
            subprocess.run(['chown', '-R', NOBODY, home], check=True)
            runs.append(lambda: user_case.readme('/tmp/user/src', commands,
                                                 wrap=chroot_argv(root, NOBODY)))
        # both before the mounts go; result() raises what a run raised
        with concurrent.futures.ThreadPoolExecutor(len(runs)) as pool:
            for future in [pool.submit(run) for run in runs]:
                future.result()
