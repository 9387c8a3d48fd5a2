# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""test/packagers: the tier behind `make test-packagers` (issue 32).

Distributions package this library with recipes written against
upstream's build interface; a drop-in replacement must build under each
of them unchanged. Each case below is such a recipe, written in this
project's own words after what the distributions' recipes run, applied to
a clean copy of the tree (the files git tracks, as they are in the
working tree):

  ports     FreeBSD ports: its compiler line in compilers/default,
            ./configure --prefix=/usr/local --host=<the port's ARCH>,
            bmake default, bmake install DESTDIR=<stage>, the stage packed
  rpm       a Fedora-style spec (libcpucycles.spec here) built with
            rpmbuild -bb: hardening flags in compilers/default, the
            static library rebuilt with -fPIE, man moved to share/man and
            lib to lib64, %files for the runtime, devel and static packages
  homebrew  ./configure --prefix=P && make install through compiler
            shims, P/man moved to P/share/man, a test program built
            against P, cpucycles-info's first line
  nix       CC (a wrapper adding hardening flags) and --prefix=$out only
  arch      CFLAGS/LDFLAGS exported, ./configure --prefix=/usr && make,
            files copied out of build/0/package into pkgdir
  conda     "$CC $CFLAGS -fwrapv -fvisibility=hidden" in compilers/default,
            configure, make, make install, the static library removed
  makes     one configured tree built by GNU make, then by BSD make from
            its Makefile alone (build/0's clean between): every package
            file the same, byte for byte
  hosts     configure takes upstream's machine names for --host (another
            CPU's, without cross compilers on the PATH, fails in one line
            naming what to install) and its --noclean, --darwin, --nodarwin

Each recipe's steps run as nobody when the tier runs as root (its own
HOME, the copy given to it), so that an install that ignores DESTDIR or
the prefix fails instead of writing to /usr. Nobody may not be able to
read the source tree (a clone inside a home directory of mode 700), so
what a step needs is copied into the case's directory first, and a step
as nobody that names the source tree fails the case, from any checkout;
the work directory must be one nobody can enter (TMPDIR), or the tier
stops before its cases.
Each case checks the exact set of files packaged, that a program links
and runs against them, and that the recipe's flags reached every
compilation unit of libcpucycles.so.1, libcpucycles.a and
cpucycles-info (DW_AT_producer, recorded with -grecord-gcc-switches),
every function of the linked files lying in such a unit.

One line per case: `<case>: ok`, `<case>: FAIL <why> (<log>)` or
`skip <case>: <reason>`; last, `N passed, M failed`, exit 1 on any
failure. Usage: python3 test/packagers [CASE...]; CPUCYCLES_PACKAGERS_JOBS
cases at a time (default 2); logs in build/packagers/<case>.log; the work
directory is kept with CPUCYCLES_PACKAGERS_KEEP=1.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

sys.dont_write_bytecode = True
from common import (Case, CaseError, Skip, LOGS, RECORD, as_nobody, machine,  # noqa: E402
                    run_pool, man1_pages, upstream_files, version)

JOBS = '-j2'


def need(*tools):
    for tool in tools:
        if not shutil.which(tool):
            raise Skip('no %s' % tool)


def need_gcc():
    """The flags are read back from what gcc records (-grecord-gcc-switches)."""
    need('gcc', 'cc', 'readelf', 'nm')


def under(prefix, files):
    return {os.path.join(prefix, f) for f in files}


def package_checks(case, root, flags, tree=None, pie=False, lib='lib'):
    """The program and flags checks on an installed tree root (bin, lib,
    include); the archive from the build tree when the package has none."""
    lib = os.path.join(root, lib)
    so = os.path.join(lib, 'libcpucycles.so.1')
    a = os.path.join(lib, 'libcpucycles.a')
    if not os.path.exists(a) and tree:
        a = os.path.join(tree, 'build', '0', 'package', 'lib', 'libcpucycles.a')
    info = os.path.join(root, 'bin', 'cpucycles-info')
    if not os.path.exists(info) and tree:
        info = os.path.join(tree, 'build', '0', 'package', 'bin', 'cpucycles-info')
    case.check_program(os.path.join(root, 'include'), lib, a if os.path.exists(a) else None)
    if not os.path.exists(a):
        case.problems.append('no libcpucycles.a to check')
    case.check_flags([(p, flags + (['-fPIE'] if pie and p == a else []))
                      for p in (so, a, info) if os.path.exists(p)])


def check_linked(case, usr, lib='lib'):
    """The recipe's link flags (-z now, -z relro) reached the links of
    libcpucycles.so.1 and cpucycles-info."""
    for path in (os.path.join(usr, lib, 'libcpucycles.so.1'),
                 os.path.join(usr, 'bin', 'cpucycles-info')):
        if not os.path.exists(path):
            continue
        dyn = case.must('readelf -d -l %s' % path, case.dir, user=False)
        rel = os.path.relpath(path, usr)
        if not re.search(r'\bBIND_NOW\b|Flags:.*\bNOW\b', dyn):
            case.problems.append('%s: not linked with -z now (the link flags did not reach it)' % rel)
        if 'GNU_RELRO' not in dyn:
            case.problems.append('%s: no GNU_RELRO (the link flags did not reach it)' % rel)


# ---------------------------------------------------------------- ports

def port_arch():
    """FreeBSD's ARCH for this machine's `uname -m`."""
    m = machine()
    return {'x86_64': 'amd64', 'i686': 'i386', 'i586': 'i386', 'armv7l': 'armv7',
            'ppc64le': 'powerpc64le', 'ppc64': 'powerpc64'}.get(m, m)


def case_ports(case):
    need_gcc()
    need('bmake')
    flags = ['-fstack-protector-strong', '-fno-strict-aliasing']
    cflags = '-O2 -pipe %s %s' % (' '.join(flags), RECORD)
    tree = case.copy('work/libcpucycles-%s' % version())
    stage = os.path.join(case.dir, 'stage')
    os.makedirs(stage)
    case.hand_over()
    # do-configure: the port's compiler line, then upstream's configure
    line = 'cc %s -fPIC -fwrapv -fvisibility=hidden' % cflags
    case.must('echo %s > compilers/default' % shlex.quote(line), tree)
    case.must('./configure --prefix=/usr/local --host=%s' % port_arch(), tree)
    case.must('bmake %s default' % JOBS, tree)
    case.must('bmake install DESTDIR=%s' % stage, tree)
    pkg = os.path.join(case.dir, 'libcpucycles-%s.tar' % version())
    case.must('tar -C %s -cf %s .' % (stage, pkg), case.dir)
    unpacked = os.path.join(case.dir, 'pkg')
    os.makedirs(unpacked)
    case.must('tar -C %s -xf %s' % (unpacked, pkg), case.dir, user=False)
    case.check_files(unpacked, under('usr/local', upstream_files(man1_pages())), 'the port')
    package_checks(case, os.path.join(unpacked, 'usr', 'local'), flags, tree)


# ---------------------------------------------------------------- rpm

def case_rpm(case):
    need_gcc()
    need('rpmbuild', 'rpm2archive')
    flags = ['-fstack-protector-strong', '-fstack-clash-protection']
    cflags = ('-O2 %s -pipe -Wall -Werror=format-security -D_FORTIFY_SOURCE=2 %s'
              % (RECORD, ' '.join(flags)))
    if machine() in ('x86_64', 'i686'):
        flags.append('-fcf-protection')
        cflags += ' -fcf-protection'
    top = os.path.join(case.dir, 'rpmbuild')
    for d in ('SOURCES', 'SPECS', 'BUILD', 'RPMS', 'SRPMS', 'BUILDROOT'):
        os.makedirs(os.path.join(top, d))
    name = 'libcpucycles-%s' % version()
    case.copy(name)
    case.must('tar -czf %s %s' % (os.path.join(top, 'SOURCES', name + '.tar.gz'), name),
              case.dir, user=False)
    shutil.rmtree(os.path.join(case.dir, name))
    spec = case.take('libcpucycles.spec', os.path.join(top, 'SPECS'))
    case.hand_over()
    ldflags = '-Wl,-z,relro -Wl,--as-needed -Wl,-z,now'
    defines = {'_topdir': top, 'cc_version': version(), 'cc_flags': cflags, 'cc_ldflags': ldflags,
               'cc_jobs': JOBS[2:], '_tmppath': os.path.join(case.dir, 'home')}
    case.must('rpmbuild --nodeps -bb %s %s' % (
        ' '.join('--define %s' % shlex.quote('%s %s' % kv) for kv in defines.items()), spec),
        case.dir, what='rpmbuild -bb')
    rpms = sorted(os.path.join(r, f) for r, _, fs in os.walk(os.path.join(top, 'RPMS'))
                  for f in fs if f.endswith('.rpm'))
    root = os.path.join(case.dir, 'installed')
    os.makedirs(root)
    kinds = {}
    for rpm in rpms:
        kind = re.sub(r'-%s-.*' % re.escape(version()), '', os.path.basename(rpm))
        kinds[kind] = set(case.must('rpm -qlp %s' % rpm, case.dir, user=False).split())
        case.must('rpm2archive - < %s | tar -xzf -' % rpm, root, user=False)
    man = ['/usr/share/man/man1/%s' % p for p in man1_pages()]
    wanted = {'libcpucycles': {'/usr/bin/cpucycles-info', '/usr/bin/cpucycles-open',
                               '/usr/lib64/libcpucycles.so.1'} | set(man),
              'libcpucycles-devel': {'/usr/include/cpucycles.h', '/usr/lib64/libcpucycles.so',
                                     '/usr/share/man/man3/cpucycles.3'},
              'libcpucycles-static': {'/usr/lib64/libcpucycles.a'}}
    for kind, files in sorted(wanted.items()):
        if kind not in kinds:
            case.problems.append('rpmbuild made no %s package' % kind)
        elif kinds[kind] != files:
            case.problems.append('%s holds %s, not %s' % (kind, ' '.join(sorted(kinds[kind])),
                                                           ' '.join(sorted(files))))
    case.check_files(root, {f.lstrip('/') for fs in wanted.values() for f in fs}, 'the packages')
    usr = os.path.join(root, 'usr')
    package_checks(case, usr, flags, pie=True, lib='lib64')
    check_linked(case, usr, lib='lib64')


# ---------------------------------------------------------------- homebrew

def homebrew_flags():
    """The flags Homebrew's superenv shims add: -Os, and on x86-64 the
    oldest CPU its bottles support."""
    return ['-Os'] + (['-march=nehalem'] if machine() == 'x86_64' else [])


def case_homebrew(case):
    need_gcc()
    flags = homebrew_flags()
    tree = case.copy()
    prefix = os.path.join(case.dir, 'Cellar', 'libcpucycles', version())
    shims = case.shim('gcc', 'gcc', '%s -w -pipe %s' % (' '.join(flags), RECORD))
    use = case.take('use.c')
    case.hand_over()
    env = case.env(PATH=shims + ':' + case.env()['PATH'], CC='gcc', MAKEFLAGS=JOBS)
    case.must('./configure --prefix=%s' % prefix, tree, env=env)
    case.must('make install', tree, env=env)
    # the formula's share.install prefix/"man"
    if not os.path.isdir(os.path.join(prefix, 'man')):
        case.problems.append('make install left no PREFIX/man to move into PREFIX/share')
    else:
        case.must('mkdir -p share && mv man share/', prefix, env=env)
    files = {re.sub(r'^man/', 'share/man/', f) for f in upstream_files(man1_pages())}
    case.check_files(prefix, files, 'the keg')
    # the formula's test: cc test.c -L<lib> -lcpucycles, and cpucycles-info
    test = os.path.join(case.home, 'test')
    status, out = case.sh('cc %s -I%s -L%s -lcpucycles -Wl,-rpath,%s -o %s && %s' % (
        use, os.path.join(prefix, 'include'), os.path.join(prefix, 'lib'),
        os.path.join(prefix, 'lib'), test, test), case.home, env=env)
    if status != 0:
        case.problems.append("the formula's test program failed (exit %d)" % status)
    status, out = case.sh('bin/cpucycles-info', prefix, env=env)
    first = out.splitlines()[0] if out.strip() else ''
    if status != 0 or not re.match(r'^cpucycles version %s$' % re.escape(version()), first):
        case.problems.append("cpucycles-info's first line is %r (exit %d), not "
                             "'cpucycles version %s'" % (first, status, version()))
    package_checks(case, prefix, flags, tree)


# ---------------------------------------------------------------- nix

def case_nix(case):
    need_gcc()
    flags = ['-fstack-protector-strong', '-fno-strict-overflow', '-fzero-call-used-regs=used-gpr']
    tree = case.copy()
    out = os.path.join(case.dir, 'store', 'libcpucycles-%s' % version())
    # the cc-wrapper: hardening flags added to every call of gcc
    wrapper = case.shim('gcc', 'gcc', '%s -D_FORTIFY_SOURCE=2 %s' % (' '.join(flags), RECORD))
    case.hand_over()
    env = case.env(PATH=wrapper + ':' + case.env()['PATH'], CC='gcc', out=out)
    case.must('./configure --prefix=$out', tree, env=env)
    case.must('make %s' % JOBS, tree, env=env)
    case.must('make install', tree, env=env)
    # the fixup phase moves $out/man (and doc, info) into $out/share
    case.must('if [ -d "$out/man" ]; then mkdir -p "$out/share" && mv "$out/man" "$out/share/"; fi',
              tree, env=env)
    files = {re.sub(r'^man/', 'share/man/', f) for f in upstream_files(man1_pages())}
    case.check_files(out, files, '$out')
    package_checks(case, out, flags, tree)


# ---------------------------------------------------------------- arch

def case_arch(case):
    need_gcc()
    need('readelf')
    flags = ['-fno-plt', '-fstack-clash-protection', '-fno-omit-frame-pointer']
    cflags = '-O2 -pipe -fexceptions -Wp,-D_FORTIFY_SOURCE=3 -Wformat -Werror=format-security'
    if machine() == 'x86_64':
        flags += ['-march=x86-64', '-fcf-protection']
    cflags = '%s %s %s' % (cflags, ' '.join(flags), RECORD)
    ldflags = '-Wl,-O1 -Wl,--sort-common -Wl,--as-needed -Wl,-z,relro -Wl,-z,now'
    tree = case.copy()
    pkgdir = os.path.join(case.dir, 'pkg', 'libcpucycles')
    os.makedirs(pkgdir)
    case.hand_over()
    env = case.env(CFLAGS=cflags, LDFLAGS=ldflags, MAKEFLAGS=JOBS)  # what makepkg exports
    case.must('./configure --prefix=/usr', tree, env=env)
    case.must('make', tree, env=env)
    # package(): copied out of build/0/package
    case.must(' && '.join([
        'cd build/0/package',
        'install -Dm755 bin/cpucycles-info "$pkgdir/usr/bin/cpucycles-info"',
        'install -Dm755 lib/libcpucycles.so.1 "$pkgdir/usr/lib/libcpucycles.so.1"',
        'ln -s libcpucycles.so.1 "$pkgdir/usr/lib/libcpucycles.so"',
        'install -Dm644 include/cpucycles.h "$pkgdir/usr/include/cpucycles.h"',
        'install -Dm644 man/man3/cpucycles.3 "$pkgdir/usr/share/man/man3/cpucycles.3"']),
        tree, env=case.env(pkgdir=pkgdir), what='package()')
    case.check_files(pkgdir, {'usr/bin/cpucycles-info', 'usr/lib/libcpucycles.so.1',
                              'usr/lib/libcpucycles.so', 'usr/include/cpucycles.h',
                              'usr/share/man/man3/cpucycles.3'}, 'pkgdir')
    usr = os.path.join(pkgdir, 'usr')
    package_checks(case, usr, flags, tree)
    check_linked(case, usr)


# ---------------------------------------------------------------- conda

def case_conda(case):
    need_gcc()
    flags = ['-ftree-vectorize', '-fstack-protector-strong', '-fno-plt']
    cflags = '%s -fPIC -O2 -ffunction-sections -pipe' % ' '.join(flags)
    if machine() == 'x86_64':
        flags += ['-march=nocona', '-mtune=haswell']
        cflags = '-march=nocona -mtune=haswell ' + cflags
    tree = case.copy()
    prefix = os.path.join(case.dir, 'h_env')
    os.makedirs(os.path.join(prefix, 'include'))
    cflags += ' -isystem %s/include %s' % (prefix, RECORD)
    ldflags = ('-Wl,-O2 -Wl,--sort-common -Wl,--as-needed -Wl,-z,relro -Wl,-z,now '
               '-Wl,--disable-new-dtags -Wl,--gc-sections -Wl,-rpath,{0}/lib '
               '-Wl,-rpath-link,{0}/lib -L{0}/lib').format(prefix)
    case.hand_over()
    # the compiler activation exports these; the build script reads them
    env = case.env(CC=shutil.which('gcc'), CFLAGS=cflags, LDFLAGS=ldflags, PREFIX=prefix)
    case.must('echo "$CC $CFLAGS -fwrapv -fvisibility=hidden" > compilers/default', tree, env=env)
    case.must('./configure --prefix="$PREFIX"', tree, env=env)
    case.must('make %s' % JOBS, tree, env=env)
    case.must('make install', tree, env=env)
    case.must('rm "$PREFIX"/lib/*.a', tree, env=env)
    case.check_files(prefix, upstream_files(man1_pages()) - {'lib/libcpucycles.a'}, 'the prefix')
    package_checks(case, prefix, flags, tree)
    check_linked(case, prefix)


# ---------------------------------------------------------------- makes

def package_files(build):
    """{path under build/<host>/package: its bytes, or where a link points}."""
    root = os.path.join(build, 'package')
    found = {}
    for top, dirs, files in os.walk(root):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            path = os.path.join(top, name)
            if os.path.islink(path):
                found[os.path.relpath(path, root)] = 'link to ' + os.readlink(path)
            else:
                with open(path, 'rb') as f:
                    found[os.path.relpath(path, root)] = f.read()
    return found


def case_makes(case):
    """GNU make runs build/<host>/Makefile with the tests beside it, BSD
    make runs it alone: the two make the same package from the same
    commands."""
    need('cc', 'make', 'bmake')
    tree = case.copy()
    case.hand_over()
    case.must('./configure', tree)
    build = os.path.join(tree, 'build', '0')
    case.must('make %s default' % JOBS, tree)
    gnu = package_files(build)
    case.must('bmake clean', build)
    case.must('bmake %s default' % JOBS, tree)
    bsd = package_files(build)
    differ = sorted(n for n in set(gnu) | set(bsd) if gnu.get(n) != bsd.get(n))
    case.log.write('\n%d package files from each make; differing: %s\n'
                   % (len(gnu), ' '.join(differ) or 'none'))
    if not gnu or differ:
        case.problems.append('GNU make and BSD make built different package files: %s'
                             % (' '.join(differ[:6]) or 'none at all'))


# ---------------------------------------------------------------- hosts

HOST_NAMES = ['x86_64', 'amd64', 'aarch64', 'arm64', 'i386', 'i686', 'armv7', 'powerpc64le']


def native_names():
    """The --host names that mean this machine's own CPU."""
    m = machine()
    return {'x86_64': {'x86_64', 'amd64'}, 'aarch64': {'aarch64', 'arm64'},
            'ppc64le': {'powerpc64le'}, 'armv7l': {'armv7'},
            'i686': {'i386', 'i686'}}.get(m, {m})


def without_cross_compilers(case):
    """A PATH like the case's, but without the cross compilers installed
    here (GNU triplet-named tools, clang, zig): what a machine without
    them sees."""
    bindir = os.path.join(case.dir, 'nocross')
    os.makedirs(bindir)
    for d in case.env()['PATH'].split(':'):
        for name in os.listdir(d) if os.path.isdir(d) else []:
            if re.match(r'.*-(linux|w64|elf|none)[-\w]*-|clang|zig', name) or \
                    os.path.lexists(os.path.join(bindir, name)):
                continue
            os.symlink(os.path.join(d, name), os.path.join(bindir, name))
    return bindir


def case_hosts(case):
    """configure alone (no make): a native machine name configures the
    same build as no --host; a foreign one, with no cross compiler on the
    PATH, fails in one line that names what to install (or configures a
    cross build with a compiler that builds for it, never the native
    build); upstream's --noclean, --darwin and --nodarwin are taken."""
    need('cc')
    tree = case.copy()
    nocross = case.env(PATH=without_cross_compilers(case))
    case.hand_over()
    case.must('./configure', tree)
    native = os.readlink(os.path.join(tree, 'build', '0'))
    for name in HOST_NAMES:
        foreign = name not in native_names()
        status, out = case.sh('./configure --host=%s 2>&1 >/dev/null' % name, tree,
                              env=nocross if foreign else None)
        errors = [l for l in out.splitlines() if l.strip()]
        built = os.readlink(os.path.join(tree, 'build', '0')) if status == 0 else None
        if not foreign:
            if status != 0:
                case.problems.append('--host=%s (this machine) failed: %s' % (
                    name, errors[-1] if errors else 'exit %d' % status))
            elif built not in (native, name):
                case.problems.append('--host=%s (this machine) configured build/%s, not build/%s'
                                     % (name, built, native))
        elif status != 0:
            if len(errors) != 1 or re.search(r'unknown', errors[0], re.I) or \
                    not re.search(r'\binstall|\bpackage\b', errors[0]):
                case.problems.append('--host=%s: not one line naming what to install: %s' % (
                    name, ' | '.join(errors)[:200]))
        elif built == native:
            case.problems.append('--host=%s (another CPU) configured the native build/%s'
                                 % (name, native))
    # --darwin asks for a macOS build, which may fail elsewhere, but as
    # an option configure knows
    for option in ('--noclean', '--nodarwin', '--clean', '--darwin'):
        status, out = case.sh('./configure %s 2>&1 >/dev/null' % option, tree)
        if status != 0 and (option != '--darwin' or re.search(r'unknown|unrecogni[sz]ed', out, re.I)):
            case.problems.append('%s refused: %s' % (option, out.strip()[:200]))


# ---------------------------------------------------------------- the runner

CASES = [('ports', case_ports), ('rpm', case_rpm), ('homebrew', case_homebrew),
         ('nix', case_nix), ('arch', case_arch), ('conda', case_conda), ('makes', case_makes),
         ('hosts', case_hosts)]


def run_case(name, fn, work):
    """-> (line, verdict) with verdict 'pass', 'fail' or 'skip'."""
    case = Case(name, work)
    start = time.time()
    try:
        fn(case)
    except Skip as e:
        case.log.close()
        return 'skip %s: %s' % (name, e), 'skip'
    except CaseError as e:
        case.problems.append(str(e))
    except Exception as e:  # a bug here must still give the case its line
        case.log.write(traceback.format_exc())
        case.problems.append('harness error: %r' % e)
    case.log.write('\n[%s: %.0f s]\n' % (name, time.time() - start))
    case.log.close()
    line = case.line()
    return line, 'fail' if case.problems else 'pass'


def main(argv):
    names = [n for n, _ in CASES]
    wanted = argv or names
    unknown = [n for n in wanted if n not in names]
    if unknown:
        sys.stderr.write('test/packagers: unknown case %s (cases: %s)\n'
                         % (' '.join(unknown), ' '.join(names)))
        return 2
    os.makedirs(LOGS, exist_ok=True)
    work = tempfile.mkdtemp(prefix='cpucycles-packagers-')
    os.chmod(work, 0o755)  # the cases run as nobody: let them in
    if os.geteuid() == 0 and subprocess.run(as_nobody(['test', '-x', work])).returncode != 0:
        # a TMPDIR inside a private directory: every case would fail on
        # its first step with "Permission denied", none saying whose
        sys.stderr.write('test/packagers: nobody cannot reach the work directory %s; '
                         'set TMPDIR to a directory every user can enter\n' % work)
        os.rmdir(work)
        return 2
    jobs = max(1, int(os.environ.get('CPUCYCLES_PACKAGERS_JOBS', '2')))

    def cleanup():
        if os.environ.get('CPUCYCLES_PACKAGERS_KEEP'):
            print('test/packagers: work directory kept in %s' % work)
        else:
            subprocess.run(['rm', '-rf', '--one-file-system', work])
    tasks = [lambda n=n, fn=fn: [run_case(n, fn, work)] for n, fn in CASES if n in wanted]
    return run_pool(tasks, jobs, 'test/packagers', cleanup)

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
