# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""configure.py: ./configure as a packager and a user with a typo meet it.

Runs configure in a scratch copy of the files it reads, so that nothing it
does (or wrongly does) can touch the build under test: install directories
given as `--opt value` and `--opt=value` reach config.mk, their defaults
follow the prefix, counters of another operating system are not reported
as failures, and a configure that fails says so in one line, names the
Debian package of a missing cross compiler, and leaves build/ exactly as
it was (the earlier build of the host, and the build/0 link). It takes what
packaging tools pass (dh_auto_configure's options exactly, VAR=VALUE,
--enable/--disable-static/shared, ${prefix} in directories), warns once
about features it does not have, and takes the host from CC. The checks
that build (out of tree, read-only source, make CFLAGS=..., a version bump)
are in configure_build.py. configure runs with the build's whole CC and
flags, as they were given.
"""
import os
import shlex
import shutil
import sys
import tempfile

from tools import build_env, config, load_configure, run

NATIVE = True


# What configure reads from the source tree.
INPUTS = ['configure', 'version', 'compilers', 'cpucycles', 'include', 'scripts-build']


def tree(root):
    """Every path under root, with a link's target: what a failure must
    leave unchanged."""
    seen = []
    for top, dirs, files in os.walk(root):
        for name in sorted(dirs + files):
            path = os.path.join(top, name)
            seen.append((path, os.readlink(path) if os.path.islink(path) else None))
    return sorted(seen)


def check(t):
    cfg, result, skip = t.cfg, t.result, t.skip
    with tempfile.TemporaryDirectory(prefix='cpucycles-configure.') as scratch:
        for name in INPUTS:
            src = os.path.join(cfg['SRC'], name)
            (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(scratch, name))
        env = build_env(cfg)
        configure = [sys.executable, 'configure']
        code, out, err = run(configure, scratch, dict(env, CC='false'))
        result(code == 1 and not os.path.lexists(os.path.join(scratch, 'build')),
               'a configure that fails in a fresh tree leaves no build/ (%d)' % code)
        code, out, err = run(configure + ['--prefix', '/usr', '--libdir', '/usr/lib/x86_64-linux-gnu',
                                          '--bindir=/usr/sbin'], scratch, env)
        result(code == 0, 'configure --prefix /usr --libdir DIR --bindir=DIR succeeds (%r)'
               % err.strip()[-200:])
        if code != 0:
            return
        got = config(os.path.join(scratch, 'build', '0', 'config.mk'))
        want = {'PREFIX': '/usr', 'LIBDIR': '/usr/lib/x86_64-linux-gnu', 'BINDIR': '/usr/sbin',
                'INCLUDEDIR': '/usr/include', 'MANDIR': '/usr/man'}
        result(all(got.get(k) == v for k, v in want.items()),
               'config.mk has the directories given, the others under the prefix, the man '
               'pages in upstream\'s PREFIX/man (%s)'
               % {k: got.get(k) for k in want})
        result('skipping' not in out and 'default-mach' not in got.get('COUNTERS', ''),
               'configure reports no counter of this host as skipped, default-mach is not built '
               '(%r)' % [l for l in out.splitlines() if 'skipping' in l])
        failures(scratch, configure, env, cfg, result)
        defaults(scratch, configure, env, result)
        gnu(scratch, configure, env, cfg, result)
        from_compiler(scratch, configure, env, cfg, result, skip)
        hosts(scratch, result)


def failures(scratch, configure, env, cfg, result):
    """Each failing configure: one line on stderr, exit 1, build/ unchanged."""
    empty = os.path.join(scratch, 'empty-path')
    os.mkdir(empty)
    bare = {k: v for k, v in env.items() if k != 'CC'}
    # a triplet of another machine, so that its compiler is a cross one
    other = 's390x-linux-gnu' if cfg['HOST'] == 'arm64' else 'aarch64-linux-gnu'
    cases = [
        (['--host=' + other], dict(bare, PATH=empty), 'gcc-' + other),
        (['--host', other], dict(bare, PATH=empty), 'gcc-' + other),
        ([], dict(bare, PATH=empty), '(Debian package gcc)'),
        ([], dict(env, CC='false'), 'false'),
        (['--libdir', 'lib'], env, 'absolute'),
        (['--prefix'], env, '--prefix'),
        (['--host=bogus'], env, 'bogus'),
        (['--frobnicate'], env, '--frobnicate'),
        (['--disable-static', '--disable-shared'], env, 'no library'),
        (['--includedir=${nowhere}/include'], env, 'nowhere'),
        (['--host=' + other], env, 'builds for'),
    ]
    for args, case_env, named in cases:
        before = tree(os.path.join(scratch, 'build'))
        code, out, err = run(configure + args, scratch, case_env)
        lines = err.splitlines()
        after = tree(os.path.join(scratch, 'build'))
        what = ' '.join(['configure'] + args + (['with CC=false'] if case_env.get('CC') == 'false'
                                                else ['without a compiler on PATH']
                                                if case_env.get('PATH') == empty else []))
        result(code == 1 and len(lines) == 1 and lines[0].startswith('configure: ')
               and named in lines[0],
               '%s: one line on stderr naming %r, exit 1 (%d, %r)' % (what, named, code, lines))
        result(before == after, '%s leaves build/ as it was (%s)'
               % (what, sorted(set(before) ^ set(after))[:4]))


def defaults(scratch, configure, env, result):
    code, out, err = run(configure + ['--prefix=/opt/cc', '--help'], scratch, env)
    result(code == 0 and '--libdir' in out and '--opt VALUE' in out,
           'configure --help lists --libdir and both forms of a value')
    from importlib.machinery import SourceFileLoader
    sys.dont_write_bytecode = True
    conf = SourceFileLoader('configure_under_test', os.path.join(scratch, 'configure')).load_module()
    opts = conf.parse_args(['--prefix', '/opt/cc/', '--mandir=/opt/man'])
    want = {'prefix': '/opt/cc', 'bindir': '/opt/cc/bin', 'libdir': '/opt/cc/lib',
            'includedir': '/opt/cc/include', 'mandir': '/opt/man'}
    result(all(opts.get(k) == v for k, v in want.items()),
           'the directories default to the GNU layout under the prefix (%s)'
           % {k: opts.get(k) for k in want})


def dh_options(cfg):
    """What dh_auto_configure (debhelper 13) passes for a native build."""
    code, machine, err = run(shlex.split(cfg['CC']) + ['-dumpmachine'], None)
    multiarch = machine.strip()
    return ['--build=' + multiarch, '--prefix=/usr', '--includedir=${prefix}/include',
            '--mandir=${prefix}/share/man', '--infodir=${prefix}/share/info', '--sysconfdir=/etc',
            '--localstatedir=/var', '--disable-option-checking', '--disable-silent-rules',
            '--libdir=${prefix}/lib/' + multiarch, '--runstatedir=/run',
            '--disable-maintainer-mode', '--disable-dependency-tracking'], multiarch


def gnu(scratch, configure, env, cfg, result):
    """The options and VAR=VALUE arguments of GNU packaging tools."""
    args, multiarch = dh_options(cfg)
    code, out, err = run(configure + args, scratch, env)
    got = config(os.path.join(scratch, 'build', '0', 'config.mk')) if code == 0 else {}
    want = {'PREFIX': '/usr', 'LIBDIR': '/usr/lib/' + multiarch, 'INCLUDEDIR': '/usr/include',
            'MANDIR': '/usr/share/man', 'HOST': cfg['HOST'], 'RUN': '',
            'DEPENDENCY_TRACKING': 'no'}
    result(code == 0 and not err and all(got.get(k) == v for k, v in want.items()),
           'configure takes dh_auto_configure\'s options, ${prefix} expanded, as a native build '
           '(%d, %r, %s)' % (code, err.strip()[-200:], {k: got.get(k) for k in want}))
    code, out, err = run(configure + ['--enable-frobnicate', '--with-gizmo=yes'], scratch, env)
    lines = err.splitlines()
    result(code == 0 and len(lines) == 1 and lines[0].startswith('configure: warning: ')
           and '--enable-frobnicate' in lines[0] and '--with-gizmo=yes' in lines[0],
           'unknown --enable-*/--with-* draw one warning line and configure goes on (%d, %r)'
           % (code, lines))
    code, out, err = run(configure + ['--disable-option-checking', '--enable-frobnicate'],
                         scratch, env)
    result(code == 0 and not err, '--disable-option-checking silences that warning (%r)' % err)
    for flag, key in (('--disable-static', 'STATIC'), ('--disable-shared', 'SHARED')):
        code, out, err = run(configure + [flag], scratch, env)
        got = config(os.path.join(scratch, 'build', '0', 'config.mk')) if code == 0 else {}
        result(got.get(key) == 'no' and got.get('SHARED' if key == 'STATIC' else 'STATIC') == 'yes',
               'configure %s: config.mk says %s = no, the other library yes' % (flag, key))
    code, out, err = run(configure + ['CFLAGS=-O1 -g', 'LDFLAGS=-Wl,-O1', 'NM=nm', 'AR=ar'],
                         scratch, dict(env, CFLAGS='-O3'))
    got = config(os.path.join(scratch, 'build', '0', 'config.mk')) if code == 0 else {}
    result(got.get('CFLAGS', '').endswith(' -O1 -g') and '-O3' not in got.get('CFLAGS', '')
           and got.get('LDFLAGS') == '-Wl,-O1'
           and '-fPIC' in got.get('CPUCYCLES_CFLAGS', '') and got.get('CC') == cfg['CC'],
           'VAR=VALUE arguments beat the environment (CFLAGS after the compiler line\'s flags); '
           'CC stays as given, the required flags apart (%s)' % {k: got.get(k) for k in ('CC', 'CFLAGS', 'LDFLAGS', 'CPUCYCLES_CFLAGS')})
    opts = load_configure(scratch, 'configure_under_test').parse_args(
        ['--exec-prefix=/opt/x', '--datarootdir=/opt/share', '--libdir=${exec_prefix}/lib64'])
    want = {'bindir': '/opt/x/bin', 'libdir': '/opt/x/lib64', 'includedir': '/usr/local/include',
            'mandir': '/opt/share/man'}
    result(all(opts.get(k) == v for k, v in want.items()),
           '--exec-prefix and --datarootdir move what lies under them (%s)'
           % {k: opts.get(k) for k in want})


def from_compiler(scratch, configure, env, cfg, result, skip):
    """With CC given and no --host, the host is the one CC builds for."""
    for cc, host in (('i686-linux-gnu-gcc', 'x86'), ('aarch64-linux-gnu-gcc', 'arm64'),
                     ('x86_64-linux-gnux32-gcc', 'x32')):
        if host == cfg['HOST']:
            continue
        if not shutil.which(cc):
            skip('CC=%s alone configures for %s: %s is not installed' % (cc, host, cc))
            continue
        code, out, err = run(configure + ['--build-dir=from-cc'], scratch,
                             dict(env, CC=cc, CFLAGS='', CPPFLAGS='', LDFLAGS=''))
        got = config(os.path.join(scratch, 'build', 'from-cc', 'config.mk')) if code == 0 else {}
        result(got.get('HOST') == host, 'CC=%s alone configures for %s (%d, %s, %r)'
               % (cc, host, code, got.get('HOST'), err.strip()[-200:]))


def hosts(scratch, result):
    """Host names of CPUs and systems configure has nothing of its own for."""
    conf = load_configure(scratch, 'configure_under_test')
    for name, want in (('alpha-linux-gnu', ('alpha', 'linux')), ('hppa-linux-gnu', ('hppa', 'linux')),
                       ('x86_64-unknown-freebsd14.1', ('amd64', 'freebsd')),
                       ('i686-gnu', ('x86', 'posix')), ('x86_64-linux-gnux32', ('x32', 'linux')),
                       ('aarch64-unknown-netbsd', ('arm64', 'posix'))):
        host, triplet, cross, os_name = conf.resolve_host(name)
        result((host, os_name) == want, '--host=%s builds for %s on %s (%s on %s)'
               % (name, want[0], want[1], host, os_name))
    result(conf.resolve_host('x86_64-linux-gnu', 'x86_64-linux-gnu')[2] is False
           and conf.resolve_host('aarch64-linux-gnu', 'aarch64-linux-gnu')[2] is False,
           '--host equal to --build is no cross build')
