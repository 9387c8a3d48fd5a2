# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""deb.py: the deb case of test/distros: a Debian package built from the
tree with dh, from a debian/ directory written here (the project ships
none), then lintian on the packages."""
import datetime
import email.utils
import glob
import os
import re
import shlex
import shutil

from case import CONFIGURE_CHECKS, CaseError, Skip, clean_copy, clean_env, SRC

# lintian tags that the scratch packaging written below draws, not the
# source, so they are left out of the verdict (and listed in the log):
LINTIAN_PACKAGING = {
    # no debian/*.symbols: keeping one is the packager's job
    'no-symbols-control-file': 'the scratch packaging has no symbols file',
    # the changelog is one generated entry
    'initial-upload-closes-no-bugs': 'the scratch changelog closes no ITP',
    'bad-distribution-in-changes-file': 'the scratch changelog names no real suite',
    # Standards-Version is what this machine's lintian knows; a newer one
    # (Debian 13's) finds it old
    'out-of-date-standards-version': 'the scratch control file states 4.6.2',
    'newer-standards-version': 'the scratch control file states 4.6.2',
    # the project has no web page of its own to name
    'no-homepage-field': 'the scratch control file has no Homepage',
    'debian-watch-file-is-missing': 'the scratch packaging has no watch file',
    # drawn only where LICENSE names no holder and year (public-domain
    # style terms such as CC0 have none): the Copyright field is then ours
    'copyright-without-copyright-notice': 'LICENSE has no notice; debian/copyright says '
                                          '"the authors"',
}
NO_NOTICE = 'the authors'
# In LICENSE: a notice (Copyright (c) YEAR ...) and the license expression.
NOTICE = re.compile(r'\s*Copyright\s*(?:\(c\)|©)?\s*(\d{4}.*)$', re.I)
SPDX = re.compile(r'\s*SPDX-License-Identifier:\s*(.+)$')




def case_deb(case, readme):
    """A Debian package built from the tree with a debian/ directory
    written here (dh with the autoconf build system: dh_auto_configure's
    usual options, plain make, make test, make install), then lintian."""
    for tool in ('dpkg-buildpackage', 'dh', 'lintian'):
        if not shutil.which(tool):
            raise Skip('no %s (apt-get install dpkg-dev debhelper lintian)' % tool)
    with open(os.path.join(SRC, 'version')) as f:
        version = f.read().strip()
    tree = clean_copy(os.path.join(case.dir, 'libcpucycles-' + version))
    problem, own = write_debian(os.path.join(tree, 'debian'), tree, version)
    if problem:
        case.problems.append(problem)
    status, out = case.sh('dpkg-buildpackage -us -uc -b', tree, env=clean_env(**CONFIGURE_CHECKS))
    case.count_suite(out)
    if status != 0:
        raise CaseError('dpkg-buildpackage exited %d' % status)
    debs = sorted(glob.glob(os.path.join(case.dir, '*.deb')))
    out = case.must('lintian --display-info --tag-display-limit 0 %s'
                    % ' '.join(shlex.quote(d) for d in debs), case.dir)
    tags = sorted({m.group(1) for m in re.finditer(r'^[EWI]: \S+: (\S+)', out, re.M)})
    for t in tags:
        if t in own:
            case.log.write('lintian tag ignored: %s (%s)\n' % (t, own[t]))
    source = [t for t in tags if t not in own]
    if source:
        case.problems.append('lintian: ' + ' '.join(source))


def write_debian(debian, tree, version):
    """The scratch packaging: a library, its -dev and the commands.
    -> (a problem of the source's to report or None, {lintian tag the
    packaging itself draws: why})."""
    os.makedirs(os.path.join(debian, 'source'))
    problem, license_text, notice, spdx = None, '', None, set()
    license_file = next((f for f in ('LICENSE', 'COPYING') if
                         os.path.exists(os.path.join(tree, f))), None)
    if license_file:
        with open(os.path.join(tree, license_file)) as f:
            lines = f.read().splitlines()
        license_text = ''.join(' %s\n' % l.rstrip() if l.strip() else ' .\n' for l in lines)
        notice = next((m.group(1) for m in map(NOTICE.match, lines) if m), None)
        spdx = {m.group(1).strip() for m in map(SPDX.match, lines) if m}
    else:
        problem = 'no LICENSE or COPYING file for debian/copyright'
    # DEP-5 writes SPDX's OR and AND in lower case
    license_name = ' or '.join(sorted(re.sub(r' (OR|AND) ', lambda m: m.group(0).lower(), e)
                                      for e in spdx)) or 'unknown'
    date = email.utils.format_datetime(datetime.datetime.now(datetime.timezone.utc))
    files = {
        'control': CONTROL,
        # cpucycles.pc is installed when asked (upstream installs none)
        'rules': '#!/usr/bin/make -f\nexport DEB_BUILD_MAINT_OPTIONS = hardening=+all\n'
                 '%:\n\tdh $@\n\noverride_dh_auto_configure:\n'
                 '\tdh_auto_configure -- --enable-pkgconfig\n',
        'changelog': 'libcpucycles (%s) unstable; urgency=medium\n\n'
                     '  * Built by make test-distros from a scratch debian/ directory.\n\n'
                     ' -- %s  %s\n' % (version, MAINTAINER, date),
        'copyright': 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n'
                     'Upstream-Name: libcpucycles\n\nFiles: *\nCopyright: %s\n'
                     'License: %s\n%s' % (notice or NO_NOTICE, license_name, license_text),
        'source/format': '3.0 (native)\n',
        'libcpucycles1.install': 'usr/lib/*/libcpucycles.so.1*\n',
        'libcpucycles-dev.install': 'usr/include/cpucycles.h\nusr/lib/*/libcpucycles.so\n'
                                    'usr/lib/*/libcpucycles.a\nusr/lib/*/pkgconfig\n'
                                    'usr/share/man/man3\n',
        'cpucycles.install': 'usr/bin\nusr/share/man/man1\n',
    }
    for name, text in files.items():
        with open(os.path.join(debian, name), 'w') as f:
            f.write(text)
    os.chmod(os.path.join(debian, 'rules'), 0o755)
    own = dict(LINTIAN_PACKAGING)
    if notice:
        own.pop('copyright-without-copyright-notice')
    return problem, own


MAINTAINER = 'libcpucycles test-distros <test-distros@example.org>'
CONTROL = '''Source: libcpucycles
Section: libs
Priority: optional
Maintainer: %s
Build-Depends: debhelper-compat (= 13), python3
Standards-Version: 4.6.2
Rules-Requires-Root: no

Package: libcpucycles1
Architecture: any
Multi-Arch: same
Depends: ${shlibs:Depends}, ${misc:Depends}
Description: microlibrary for counting CPU cycles
 On its first call the library measures every cycle counter compiled for
 the machine and points cpucycles() at the most precise one; later calls
 cost the counter read. This package holds the shared library.

Package: libcpucycles-dev
Section: libdevel
Architecture: any
Multi-Arch: same
Depends: libcpucycles1 (= ${binary:Version}), ${misc:Depends}
Description: microlibrary for counting CPU cycles (development files)
 On its first call the library measures every cycle counter compiled for
 the machine and points cpucycles() at the most precise one; later calls
 cost the counter read. This package holds the header, the static library
 and the pkg-config file.

Package: cpucycles
Section: utils
Architecture: any
Depends: ${shlibs:Depends}, ${misc:Depends}
Description: show which CPU cycle counter a machine offers
 cpucycles-info prints the counters libcpucycles tried on this machine, its
 estimate of cycles per second and the counter chosen; cpucycles-open lets
 every program read the kernel's better cycle counters.
''' % MAINTAINER
