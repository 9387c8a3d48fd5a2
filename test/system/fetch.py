# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""fetch.py: a guest's kernel and busybox, from Debian's archive.

The packages are foreign-architecture .debs, so they are downloaded with a
private apt configuration (its own sources list, package lists, status file
and cache, APT::Architecture set to the guest's) and never through the
machine's own apt state: a foreign index that fails to verify must not
break `apt-get update` for the machine. The archive address is the one
this machine's apt already uses, read at run time. Nothing is installed:
the kernel image and busybox are taken out of the packages with
`dpkg-deb --fsys-tarfile`, and kept in a cache outside the build tree so
that `make clean` does not cost a download.
"""
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import tarfile

KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg'
ALIASES = ['stable', 'oldstable', 'testing']


class FetchError(Exception):
    pass


def cache_dir():
    """$CPUCYCLES_SYSTEM_CACHE, else $XDG_CACHE_HOME/cpucycles-system,
    else ~/.cache/cpucycles-system."""
    if os.environ.get('CPUCYCLES_SYSTEM_CACHE'):
        return os.environ['CPUCYCLES_SYSTEM_CACHE']
    base = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'cpucycles-system')


def sources_paragraphs():
    """The machine's apt sources as (uris, suites, components) tuples,
    from deb822 .sources files and one-line .list files alike."""
    found = []
    for path in sorted(glob.glob('/etc/apt/sources.list.d/*.sources')):
        with open(path) as f:
            text = f.read()
        for para in re.split(r'\n\s*\n', text):
            fields = {}
            for line in para.splitlines():
                if line.startswith('#') or ':' not in line or line[0].isspace():
                    continue
                key, value = line.split(':', 1)
                fields[key.strip().lower()] = value.split()
            if 'deb' in fields.get('types', []) and fields.get('enabled', ['yes'])[0] != 'no':
                found.append((fields.get('uris', []), fields.get('suites', []),
                              fields.get('components', [])))
    lists = ['/etc/apt/sources.list'] + sorted(glob.glob('/etc/apt/sources.list.d/*.list'))
    for path in lists:
        if not os.path.exists(path):
            continue
        with open(path) as f:
            for line in f:
                line = re.sub(r'\[[^\]]*\]', ' ', line.split('#', 1)[0])
                parts = line.split()
                if len(parts) >= 3 and parts[0] == 'deb':
                    found.append(([parts[1]], [parts[2]], parts[3:]))
    return found


def archive_uri():
    """The Debian archive this machine uses: the first source carrying a
    release suite (not -security, -updates or -backports) with main."""
    for uris, suites, components in sources_paragraphs():
        plain = [s for s in suites if '-' not in s and '/' not in s]
        if plain and 'main' in components and uris:
            return uris[0].rstrip('/')
    raise FetchError('no Debian archive with a release suite and main in /etc/apt/sources*')


class Apt:
    """apt-get and apt-cache on a private state for one suite and architecture."""

    def __init__(self, root, suite, debarch, log):
        self.root, self.suite, self.debarch, self.log = root, suite, debarch, log
        for d in ['lists/partial', 'cache/archives/partial', 'parts', 'prefs']:
            os.makedirs(os.path.join(root, d), exist_ok=True)
        self.sources = os.path.join(root, 'sources.list')
        status = os.path.join(root, 'status')
        open(status, 'a').close()
        self.opts = []
        for key, value in [
                ('Dir::Etc::SourceList', self.sources), ('Dir::Etc::SourceParts', root + '/parts'),
                ('Dir::Etc::Preferences', root + '/prefs/none'),
                ('Dir::Etc::PreferencesParts', root + '/prefs'),
                ('Dir::State::Lists', root + '/lists'), ('Dir::State::Status', status),
                ('Dir::Cache', root + '/cache'), ('APT::Architecture', debarch),
                ('APT::Architectures', debarch), ('APT::Sandbox::User', 'root'),
                ('Acquire::Languages', 'none')]:
            self.opts += ['-o', '%s=%s' % (key, value)]

    def call(self, tool, args, cwd=None):
        cmd = [tool] + self.opts + args
        self.log.write('$ %s\n' % ' '.join(cmd))
        self.log.flush()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd)
        out = p.stdout.decode('utf-8', 'replace')
        self.log.write(out)
        if p.returncode != 0:
            raise FetchError('%s %s failed (%d): %s' % (tool, ' '.join(args), p.returncode,
                                                       out.strip().splitlines()[-1:]))
        return out

    def update(self):
        """The suite's signed index, by its codename or, where the mirror
        serves that one inconsistently (its Packages file not the one its
        InRelease lists: seen for trixie here), by an alias (stable, ...)
        whose verified Release names the same codename."""
        errors = []
        for name in [self.suite] + ALIASES:
            for f in glob.glob(os.path.join(self.root, 'lists', '*')):
                if os.path.isfile(f):
                    os.remove(f)
            with open(self.sources, 'w') as f:
                f.write('deb [arch=%s signed-by=%s] %s %s main\n'
                        % (self.debarch, KEYRING, archive_uri(), name))
            try:
                self.call('apt-get', ['-qq', 'update'])
            except FetchError as e:
                errors.append(str(e))
                continue
            releases = glob.glob(os.path.join(self.root, 'lists', '*Release'))
            text = ''.join(open(r, errors='replace').read() for r in releases)
            if re.search(r'^Codename: %s$' % re.escape(self.suite), text, re.M):
                return name
            errors.append('%s is not %s' % (name, self.suite))
        raise FetchError('no consistent index for %s: %s' % (self.suite, '; '.join(errors)))

    def real_package(self, name):
        """A metapackage (linux-image-arm64) -> the package it depends on
        that holds the files (linux-image-6.1.0-NN-arm64)."""
        out = self.call('apt-cache', ['show', '--no-all-versions', name])
        m = re.search(r'^Depends: ([^\s,(]+)', out, re.M)
        return m.group(1) if m and m.group(1).startswith('linux-image-') else name

    def download(self, name, dest):
        before = set(os.listdir(dest))
        self.call('apt-get', ['-qq', 'download', name], cwd=dest)
        new = [f for f in set(os.listdir(dest)) - before if f.endswith('.deb')]
        if len(new) != 1:
            raise FetchError('apt-get download %s gave %s' % (name, new))
        return os.path.join(dest, new[0])


def extract(deb, wanted, dest):
    """Members of the .deb's file system matching the glob `wanted`
    (relative, like boot/vmlinuz-*; alternatives separated by |) -> the
    one file, extracted to dest."""
    p = subprocess.Popen(['dpkg-deb', '--fsys-tarfile', deb], stdout=subprocess.PIPE)
    got = None
    with tarfile.open(fileobj=p.stdout, mode='r|') as tar:
        for member in tar:
            name = member.name[2:] if member.name.startswith('./') else member.name
            if member.isfile() and any(fnmatch.fnmatch(name, w) for w in wanted.split('|')):
                src = tar.extractfile(member)
                with open(dest + '.tmp', 'wb') as out:
                    shutil.copyfileobj(src, out)
                os.chmod(dest + '.tmp', 0o755)
                os.replace(dest + '.tmp', dest)
                got = name
    p.wait()
    if p.returncode != 0 or got is None:
        raise FetchError('%s: no %s in it (dpkg-deb %d)' % (deb, wanted, p.returncode))
    return got


def guest_files(arch, machine, log):
    """-> (kernel image path, busybox path, description) for a guest,
    downloaded once and reused from the cache."""
    root = os.path.join(cache_dir(), arch)
    kernel, busybox = os.path.join(root, 'kernel'), os.path.join(root, 'busybox')
    stamp = os.path.join(root, 'packages')
    if all(os.path.exists(p) for p in (kernel, busybox, stamp)) and \
            not os.environ.get('CPUCYCLES_SYSTEM_REFRESH'):
        with open(stamp) as f:
            return kernel, busybox, f.read().strip()
    os.makedirs(root, exist_ok=True)
    apt = Apt(os.path.join(cache_dir(), 'apt', '%s-%s' % (machine['suite'], machine['debarch'])),
              machine['suite'], machine['debarch'], log)
    served = apt.update()
    debs = os.path.join(root, 'debs')
    shutil.rmtree(debs, ignore_errors=True)
    os.makedirs(debs)
    name = apt.real_package(machine['kernel'])
    image = extract(apt.download(name, debs), machine['image'], kernel)
    extract(apt.download('busybox-static', debs), 'bin/busybox|usr/bin/busybox', busybox)
    described = '%s%s %s (%s), busybox-static' % (
        machine['suite'], '' if served == machine['suite'] else ' as ' + served, name, image)
    shutil.rmtree(debs, ignore_errors=True)
    with open(stamp, 'w') as f:
        f.write(described + '\n')
    return kernel, busybox, described


def main(argv):
    """python3 test/system/fetch.py [ARCH...]: the guests' kernels and
    busybox into the cache, nothing else (what make test-system fetches
    first; .ci/run has it done while README's commands run). One line a
    guest; exit 1 when one could not be had."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import machines
    failed = 0
    for arch in argv or machines.DEFAULT:
        if arch not in machines.MACHINES:
            print('fetch: %s: no such guest (guests: %s)' % (arch, ' '.join(machines.ORDER)))
            failed += 1
            continue
        with open(os.devnull, 'w') as log:
            try:
                print('fetch: %s: %s' % (arch, guest_files(arch, machines.MACHINES[arch], log)[2]))
            except (FetchError, OSError, subprocess.CalledProcessError) as e:
                print('fetch: %s: FAIL %s' % (arch, e))
                failed += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
