#!/usr/bin/env python3
# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""autogen/spdx.py [--check] [--root DIR] [FILE...]: the SPDX line of every
source file.

Each source file carries `SPDX-License-Identifier: <expression>` in a
comment near its top, the expression being the one LICENSE states. With
no option the line is added to every file that lacks it: first line, or
second after a #! line or an HTML doctype, in the file's own comment
syntax. A file that already has it is left byte for byte as it is, so
running this again changes nothing. With --check nothing is written: the
files that lack the line, carry another expression, or have no comment
syntax known here are listed on stderr, and the status is 1.

The files are those git tracks under DIR (the source tree by default);
without git, every file under DIR except build directories and binary
files. Prose and data carry no line: markdown (doc/*.md, README.md),
LICENSE itself, the version file and the fuzzing seeds. A new kind of
file is refused until a comment syntax for it is added to SYNTAX below:
a source file cannot go without the line unnoticed.

autogen/doc imports this to put the line into the generated HTML and man
pages.
"""
import os
import re
import subprocess
import sys

KEY = 'SPDX-License-Identifier: '

# Not source: prose and data, which carry no line.
EXEMPT = [r'.*\.md', r'LICENSE', r'version', r'test/fuzz/corpus/.*']

# (pattern on the path relative to the tree, comment start, comment end),
# first match wins; files that start with #! take '#' whatever their name.
SYNTAX = [
    (r'.*\.(c|h|css)', '/* ', ' */'),
    (r'.*\.html', '<!-- ', ' -->'),
    (r'(doc/man|.*/man[0-9])/[^/]+\.[0-9]', '.\\" ', ''),
    (r'.*\.(py|mk|sh|supp|pc\.in)', '# ', ''),
    (r'(.*/)?(Makefile|configure|\.gitignore)', '# ', ''),
    (r'compilers/[^/]+', '# ', ''),
    (r'cpucycles/options', '# ', ''),
    (r'\.ci/[^/]+', '# ', ''),
    (r'.*\.map', '/* ', ' */'),
    (r'.*\.def', '; ', ''),
]

# Without git, what the project's own tree holds: these top-level files
# and directories. Whatever else a packager or a build adds beside them
# (debian/, quilt's .pc/, stamp files, a release tarball) is not ours.
TOP_FILES = ['Makefile', 'configure', '.gitignore', 'LICENSE', 'README.md', 'version']
TOP_DIRS = ['.ci', 'autogen', 'bench', 'command', 'compilers', 'cpucycles', 'doc', 'include',
            'scripts-build', 'test']

# How far from the top the line may stand and still count.
TOP = 5

# An SPDX line: a comment start, the key, the expression, the comment end.
LINE = re.compile(r'\s*(?:#|/\*|<!--|\.\\"|//|;)\s*' + KEY + r'(.*?)\s*(?:\*/|-->)?\s*$')


def identifier(root):
    """The license expression that LICENSE in ROOT states."""
    with open(os.path.join(root, 'LICENSE'), encoding='utf-8') as f:
        for line in f:
            if line.startswith(KEY):
                return line[len(KEY):].strip()
    raise SystemExit('autogen/spdx.py: LICENSE in %s states no %sline' % (root, KEY))


def syntax(rel, first_line):
    """(start, end) of a comment in file REL, or None when not known."""
    if first_line.startswith('#!'):
        return '# ', ''
    for pattern, start, end in SYNTAX:
        if re.fullmatch(pattern, rel):
            return start, end
    return None


def line_for(rel, expression, first_line=''):
    """The SPDX comment line for file REL (without its newline)."""
    start, end = syntax(rel, first_line) or ('# ', '')
    return start + KEY + expression + end


def exempt(rel):
    return any(re.fullmatch(p, rel) for p in EXEMPT)


def files(root):
    """The tree's files, relative to ROOT."""
    try:
        p = subprocess.run(['git', '-C', root, 'ls-files', '-z'], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
        # only when ROOT is itself the top of a work tree (a scratch tree
        # inside another checkout is walked)
        top = subprocess.run(['git', '-C', root, 'rev-parse', '--show-toplevel'],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if p.returncode == 0 and top.returncode == 0 and \
                os.path.realpath(top.stdout.decode().strip()) == os.path.realpath(root):
            return sorted(f for f in p.stdout.decode('utf-8', 'replace').split('\0')
                          if f and os.path.isfile(os.path.join(root, f)))
    except OSError:
        pass
    found = [f for f in TOP_FILES if os.path.isfile(os.path.join(root, f))]
    for d, dirs, names in (w for top in TOP_DIRS for w in os.walk(os.path.join(root, top))):
        # build directories hold what configure and make wrote
        dirs[:] = sorted(x for x in dirs if x not in ('.git', 'build', '__pycache__')
                         and not os.path.exists(os.path.join(d, x, 'config.mk')))
        for name in names:
            path = os.path.join(d, name)
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, 'rb') as f:
                    if b'\0' in f.read(8192):
                        continue        # binary, e.g. a release tarball
                found.append(os.path.relpath(path, root))
    return sorted(found)


def examine(root, rel, expression):
    """(problem or None, text) for one file."""
    with open(os.path.join(root, rel), 'rb') as f:
        data = f.read()
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError:
        return 'not UTF-8 text', None
    head = text.split('\n', TOP)[:TOP]
    # the line itself, in a comment; not a sentence that mentions it
    found = [m.group(1) for m in (LINE.match(l) for l in head) if m]
    if found:
        if found[0] != expression:
            return 'states another license: %s' % found[0], text
        return None, text
    if syntax(rel, head[0]) is None:
        return 'no comment syntax known for this kind of file (add one to SYNTAX in ' \
               'autogen/spdx.py)', text
    return 'has no %sline' % KEY, text


def add(root, rel, expression, text):
    lines = text.split('\n')
    at = 1 if lines[0].startswith('#!') or lines[0].lower().startswith('<!doctype') else 0
    lines.insert(at, line_for(rel, expression, lines[0]))
    with open(os.path.join(root, rel), 'w', encoding='utf-8', newline='\n') as f:
        f.write('\n'.join(lines))


def main():
    args = sys.argv[1:]
    check = False
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    chosen = []
    while args:
        if args[0] == '--check':
            check = True
            args = args[1:]
        elif args[0] == '--root' and len(args) > 1:
            root = os.path.abspath(args[1])
            args = args[2:]
        elif args[0].startswith('-'):
            sys.stderr.write('usage: autogen/spdx.py [--check] [--root DIR] [FILE...]\n')
            sys.exit(2)
        else:
            chosen.append(args[0])
            args = args[1:]
    expression = identifier(root)
    names = [os.path.relpath(os.path.abspath(c), root) for c in chosen] or files(root)
    bad = 0
    for rel in names:
        if exempt(rel):
            continue
        problem, text = examine(root, rel, expression)
        if problem is None:
            continue
        if not check and problem.startswith('has no '):
            add(root, rel, expression, text)
            print('added: %s' % rel)
            continue
        sys.stderr.write('%s: %s\n' % (rel, problem))
        bad += 1
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
