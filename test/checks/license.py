# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""license.py: the license is stated, and every source file carries it.

LICENSE names an SPDX expression and holds the full text of each license
in it; README says it; autogen/spdx.py --check finds the line in every
source file of the tree. The checker itself is tried on a scratch tree:
a new file without the line must fail it, the line it adds must then
pass it, adding twice must change nothing, and a kind of file it has no
comment syntax for must fail rather than pass.
"""
import os
import shutil
import sys
import tempfile

from tools import output

NATIVE = True

# The first line of each license's standard text, by SPDX identifier.
TEXTS = {'CC0-1.0': 'CC0 1.0 Universal', '0BSD': 'BSD Zero Clause License',
         'MIT-0': 'MIT No Attribution', 'MIT': 'MIT License'}


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def spdx(src, args):
    return output([sys.executable, os.path.join(src, 'autogen', 'spdx.py')] + args)


def said(out):
    return out.strip().replace('\n', '; ')[:400]


def check(t):
    src, result = t.src, t.result
    path = os.path.join(src, 'LICENSE')
    if not os.path.isfile(path):
        result(False, 'LICENSE exists')
        return
    text = read(path)
    key = 'SPDX-License-Identifier: '
    stated = [l[len(key):].strip() for l in text.splitlines() if l.startswith(key)]
    result(len(stated) == 1, 'LICENSE states one SPDX expression (%s)' % stated)
    if len(stated) != 1:
        return
    expression = stated[0]
    ids = expression.split(' OR ')
    missing = [i for i in ids if i not in TEXTS or '\n%s\n' % TEXTS[i] not in text]
    result(not missing, 'LICENSE holds the text of each license in %s (missing: %s)'
           % (expression, missing))
    result(expression in read(os.path.join(src, 'README.md')), 'README states %s' % expression)

    code, out = spdx(src, ['--check'])
    result(code == 0, 'every source file carries "%s%s" (%s)'
           % (key, expression, said(out) or 'status %d' % code))

    with tempfile.TemporaryDirectory(prefix='cpucycles-spdx.') as tmp:
        shutil.copy(path, tmp)
        for d in ('cpucycles', 'test', 'debian'):
            os.mkdir(os.path.join(tmp, d))
        # a packager's own files beside the project's are not its business
        with open(os.path.join(tmp, 'debian', 'rules'), 'w') as f:
            f.write('#!/usr/bin/make -f\n%:\n\tdh $@\n')
        with open(os.path.join(tmp, 'cpucycles', 'new.c'), 'w') as f:
            f.write('int x;\n')
        with open(os.path.join(tmp, 'test', 'tool'), 'w') as f:
            f.write('#!/bin/sh\necho hi\n')
        code, out = spdx(src, ['--check', '--root', tmp])
        result(code != 0 and 'new.c' in out and 'tool' in out,
               'spdx.py --check fails on a tree with new files that lack the line (%s)' % said(out))
        code, out = spdx(src, ['--root', tmp])
        c = read(os.path.join(tmp, 'cpucycles', 'new.c'))
        t = read(os.path.join(tmp, 'test', 'tool'))
        result(code == 0 and c == '/* %s%s */\nint x;\n' % (key, expression)
               and t == '#!/bin/sh\n# %s%s\necho hi\n' % (key, expression),
               'spdx.py adds the line in the comment syntax of each file, after a #! line '
               '(%r, %r)' % (c, t))
        code, out = spdx(src, ['--check', '--root', tmp])
        result(code == 0 and 'debian' not in out,
               'spdx.py --check passes once the lines are added, leaving debian/ alone (%s)'
               % said(out))
        spdx(src, ['--root', tmp])
        result(read(os.path.join(tmp, 'cpucycles', 'new.c')) == c and read(os.path.join(tmp, 'test', 'tool')) == t,
               'spdx.py run again changes nothing')
        with open(os.path.join(tmp, 'test', 'other.py'), 'w') as f:
            f.write('# %sGPL-2.0-only\n' % key)
        code, out = spdx(src, ['--check', '--root', tmp])
        result(code != 0 and 'other.py: states another license' in out,
               'spdx.py --check fails on a file that states another license (%s)' % said(out))
        os.remove(os.path.join(tmp, 'test', 'other.py'))
        with open(os.path.join(tmp, 'test', 'data.xyz'), 'w') as f:
            f.write('1 2 3\n')
        code, out = spdx(src, ['--root', tmp])
        result(code != 0 and 'data.xyz' in out and read(os.path.join(tmp, 'test', 'data.xyz')) == '1 2 3\n',
               'spdx.py refuses a kind of file it knows no comment for, and leaves it alone (%s)'
               % said(out))
