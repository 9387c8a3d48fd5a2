# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""test/distros: the tier behind `make test-distros` (issue 17).

Builds the project the way its users and Debian's packagers do, each time
from a clean copy of the tree, and runs README's two commands exactly as
README writes them (read from its "Try it" section at run time, so that
README and this tier cannot drift apart), then the suite:

  machine      this machine, as it is
  trixie       a Debian 13 chroot (debootstrap --variant=minbase from the
               archive this machine's apt uses, verified with its keyring,
               cached), after README's apt-get line and man-db, as root
  trixie-user  the same chroot, as an unprivileged user, beside trixie
  debflags     Debian's flags: dpkg-buildflags with hardening=+all and
               optimize=+lto, exported; nm on libcpucycles.a
  clang        CC=clang; nm on libcpucycles.a
  musl         CC=musl-gcc; nm on libcpucycles.a
  readonly     a read-only source built from another directory
               (mkdir b && cd b && ../src/configure ...); the source must
               be left exactly as it was
  dist         `make dist`, unpacked elsewhere without git, README there
  deb          a debhelper package of the tree (a scratch debian/ written
               here; the project ships none), its suite, and lintian

The suite's checks of configure run in trixie-user (and in README's run
on the machine); the other cases leave them out (case.py,
CONFIGURE_CHECKS says why).

One line per case: `<case>: N passed, M failed, K skipped` from the suite,
or `<case>: FAIL <why>`; a case that cannot run here prints `skip <case>:
<reason>`. Last, `N passed, M failed` over the cases; exit 1 on any
failure. Usage: python3 test/distros [CASE...]; CPUCYCLES_DISTROS_JOBS cases at a
time (default 2). Each case's log is build/distros/<case>.log.
`python3 test/distros --prepare` only makes the Debian 13 chroot's cached
tar when the trixie cases would make it first (.ci/run, while README's
commands run).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from case import (CONFIGURE_CHECKS, CaseError, Case, Skip, clean_copy, clean_env, run_pool,  # noqa: E402
                  snapshot, tracked_files, LOGS, SRC)
from chroot import cache_dir, cached_chroot, cases_trixie, fetch, mounted_under  # noqa: E402
from deb import case_deb  # noqa: E402

DEBFLAGS = ('eval "$(DEB_BUILD_MAINT_OPTIONS=\'hardening=+all optimize=+lto\' '
            'dpkg-buildflags --export=sh)"')


def readme_try_it(text):
    """README.md's "Try it" section -> (apt-get line, [the two commands]):
    its indented lines, the one with apt-get being the root part."""
    m = re.search(r'^## Try it.*?\n(.*?)(?=^## |\Z)', text, re.M | re.S)
    if not m:
        raise CaseError('README.md has no "## Try it" section')
    # the lines indented by four spaces (.ci/run reads them the same way)
    lines = [l[4:].rstrip() for l in m.group(1).splitlines() if re.match(r'    \S', l)]
    apt = [l for l in lines if 'apt-get' in l]
    commands = [l for l in lines if 'apt-get' not in l]
    if len(apt) != 1 or len(commands) != 2:
        raise CaseError("README's Try it section: expected one apt-get line and two commands, "
                        'found %r' % lines)
    return apt[0], commands


def api_names(header):
    """The names include/cpucycles.h declares extern: the whole API."""
    with open(header) as f:
        text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
    return set(re.findall(r'\bextern\b[^;]*?\b(cpucycles\w*)', text))


def case_machine(case, readme):
    tree = clean_copy(os.path.join(case.dir, 'src'))
    case.readme(tree, readme[1])


def case_flags(case, readme, prefix='', env=None, tools=()):
    for tool in tools:
        if not shutil.which(tool):
            raise Skip('no %s' % tool)
    tree = clean_copy(os.path.join(case.dir, 'src'))
    case.readme(tree, readme[1], prefix=prefix, env=env)
    case.nm_check(tree, api_names(os.path.join(tree, 'include', 'cpucycles.h')))


def case_readonly(case, readme):
    """mkdir b && cd b && ../src/configure: README's commands from a build
    directory beside a source nobody may write. Root ignores the
    permissions, so the source is compared before and after as well."""
    commands = readme[1]
    if not commands[0].startswith('./configure'):
        raise CaseError("README's first command does not start with ./configure")
    commands = ['../src/configure' + commands[0][len('./configure'):]] + commands[1:]
    src = clean_copy(os.path.join(case.dir, 'src'))
    subprocess.run(['chmod', '-R', 'a-w', src], check=True)
    before = snapshot(src)
    build = os.path.join(case.dir, 'b')
    os.makedirs(build)
    try:
        case.readme(build, commands, cwd=build, env=clean_env(**CONFIGURE_CHECKS))
    finally:
        after = snapshot(src)
        subprocess.run(['chmod', '-R', 'u+w', src], check=True)
    changed = sorted(set(before) ^ set(after) |
                     {p for p in set(before) & set(after) if before[p] != after[p]})
    if changed:
        case.problems.append('the read-only source changed: ' + ' '.join(changed[:6]))


def case_dist(case, readme):
    """make dist in a git clone of HEAD, then README's commands in the
    tarball unpacked far from any git repository."""
    top = os.path.join(case.dir, 'git')
    if tracked_files() is not None:
        case.must('git clone -q --no-hardlinks %s %s && git -C %s checkout -q %s'
                  % (shlex.quote(SRC), top, top, head_commit()), case.dir)
    else:
        clean_copy(top)
    with open(os.path.join(top, 'version')) as f:
        version = f.read().strip()
    case.must('make dist', top)
    name = 'libcpucycles-%s' % version
    tarball = os.path.join(top, name + '.tar.gz')
    if not os.path.exists(tarball):
        raise CaseError('make dist made no %s.tar.gz in the top directory' % name)
    unpacked = os.path.join(case.dir, 'unpacked')
    os.makedirs(unpacked)
    with tarfile.open(tarball) as tar:
        names = tar.getnames()
        tar.extractall(unpacked)
    tops = {n.split('/')[0] for n in names}
    if tops != {name}:
        case.problems.append('the tarball unpacks into %s, not %s/' % (sorted(tops)[:4], name))
    if any('.git' in n.split('/')[1:] for n in names):
        case.problems.append('the tarball holds .git')
    if any(n.split('/')[1:2] == ['build'] for n in names):
        case.problems.append('the tarball holds build/')
    tree = os.path.join(unpacked, name)
    if os.path.isdir(tree):
        # no git above it either
        case.readme(tree, readme[1],
                    env=clean_env(GIT_CEILING_DIRECTORIES=unpacked, **CONFIGURE_CHECKS))


def head_commit():
    return subprocess.run(['git', '-C', SRC, 'rev-parse', 'HEAD'], stdout=subprocess.PIPE,
                          check=True).stdout.decode().strip()


NAMES = ['machine', 'trixie', 'trixie-user', 'debflags', 'clang', 'musl', 'readonly', 'dist',
         'deb']


def groups(readme):
    """[(case names, function of their Cases)], each group run in order."""
    def one(fn, *args, **kw):
        return lambda cases: fn(cases[0], readme, *args, **kw)
    return [
        (['machine'], one(case_machine)),
        (['trixie', 'trixie-user'], lambda cases: cases_trixie(cases, readme)),
        (['debflags'], one(case_flags, prefix=DEBFLAGS + ' && ', env=clean_env(**CONFIGURE_CHECKS),
                           tools=['dpkg-buildflags'])),
        (['clang'], one(case_flags, env=clean_env(CC='clang', **CONFIGURE_CHECKS),
                        tools=['clang'])),
        (['musl'], one(case_flags, env=clean_env(CC='musl-gcc', **CONFIGURE_CHECKS),
                       tools=['musl-gcc'])),
        (['readonly'], one(case_readonly)),
        (['dist'], one(case_dist)),
        (['deb'], one(case_deb)),
    ]


def run_group(names, fn, wanted, work):
    """-> [(name, line, verdict)] with verdict 'pass', 'fail' or 'skip'."""
    cases = [Case(n, work) if n in wanted else None for n in names]
    start = time.time()
    try:
        fn(cases)
    except Skip as e:
        return [(c.name, 'skip %s: %s' % (c.name, e), 'skip') for c in cases if c]
    except CaseError as e:
        for c in cases:
            if c and (c is cases[0] or not c.suite):
                c.problems.append(str(e))
    except Exception as e:  # a bug here must still give every case its line
        for c in cases:
            if c:
                c.log.write(traceback.format_exc())
                c.problems.append('harness error: %r' % e)
    results = []
    for c in cases:
        if c:
            c.log.write('\n[%s: %.0f s for %s]\n' % (c.name, time.time() - start, ' and '.join(names)))
            line = c.line()
            results.append((c.name, line, 'fail' if ': FAIL ' in line else 'pass'))
            c.log.close()
    return results


def clear_stale_mounts(tmp):
    """Mounts left under the work directories of runs that died."""
    for point in mounted_under(tmp):
        m = re.match(re.escape(tmp) + r'/cpucycles-distros-(\d+)-', point)
        if m and not os.path.exists('/proc/%s' % m.group(1)):
            subprocess.run(['umount', '-R', '-l', point], stderr=subprocess.DEVNULL)


def prepare(readme):
    """--prepare: the Debian 13 chroot's cached tar, made now if the
    trixie cases would make it first (so that a caller can make it while
    it does other work). -> exit status."""
    if os.geteuid() != 0 or not shutil.which('debootstrap') or not os.path.exists(fetch.KEYRING):
        print('test/distros --prepare: nothing made: it needs root, debootstrap and %s'
              % fetch.KEYRING)
        return 0
    work = tempfile.mkdtemp(prefix='cpucycles-distros-%d-' % os.getpid())
    # the log beside the cache: the tree may be a fresh clone whose
    # README commands run meanwhile, and build/ is theirs to make
    os.makedirs(cache_dir(), exist_ok=True)
    case = Case('prepare', work, logs=cache_dir())
    try:
        tarball = cached_chroot(case, readme[0])
    except CaseError as e:
        print('test/distros --prepare: FAIL %s (%s)' % (e, case.log.name))
        return 1
    finally:
        case.log.close()
        shutil.rmtree(work, ignore_errors=True)
    print('test/distros --prepare: %s' % tarball)
    return 0


def main(argv):
    if argv == ['--prepare']:
        with open(os.path.join(SRC, 'README.md')) as f:
            return prepare(readme_try_it(f.read()))
    # NAME picks a case, -NAME leaves one out of the others
    left_out = [n[1:] for n in argv if n.startswith('-')]
    picked = [n for n in argv if not n.startswith('-')]
    wanted = [n for n in picked or NAMES if n not in left_out]
    unknown = [n for n in picked + left_out if n not in NAMES]
    if unknown:
        sys.stderr.write('test/distros: unknown case %s (cases: %s)\n'
                         % (' '.join(unknown), ' '.join(NAMES)))
        return 2
    with open(os.path.join(SRC, 'README.md')) as f:
        try:
            readme = readme_try_it(f.read())
        except CaseError as e:
            sys.stderr.write('test/distros: %s\n' % e)
            return 1
    os.makedirs(LOGS, exist_ok=True)
    tmp = os.path.realpath(tempfile.gettempdir())
    if os.geteuid() == 0:
        clear_stale_mounts(tmp)
    work = tempfile.mkdtemp(prefix='cpucycles-distros-%d-' % os.getpid(), dir=tmp)
    # the work tree's cases run as nobody in places: let them in
    os.chmod(work, 0o755)
    jobs = max(1, int(os.environ.get('CPUCYCLES_DISTROS_JOBS', '2')))
    todo = [(n, fn) for n, fn in groups(readme) if set(n) & set(wanted)]

    def cleanup():
        if mounted_under(work):
            print('test/distros: %s still has mounts; left in place' % work)
        elif not os.environ.get('CPUCYCLES_DISTROS_KEEP'):
            subprocess.run(['chmod', '-R', 'u+w', work])
            subprocess.run(['rm', '-rf', '--one-file-system', work])
    # each group's [(name, line, verdict)] without the names
    tasks = [lambda n=n, fn=fn: [r[1:] for r in run_group(n, fn, wanted, work)]
             for n, fn in todo]
    # the cases unmount what they mounted (in their finally) before the
    # work directory goes
    return run_pool(tasks, jobs, 'test/distros', cleanup)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
