# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""layers: the library's files call only downwards (doc/internals.md).

Reads the built objects of the library (t.build/obj) with the configured nm:
each object's defined global symbols and its undefined ones give a graph of
which file uses which. Two assertions:
- the graph has no cycle: no file uses, directly or through others, a file
  that uses it back (each cycle found is printed, with the symbols);
- no object but api's refers to a public name (scripts-build/exports.map):
  what lies below api.c gets what it needs as arguments, never by calling
  the API, whose first call would run the selection from inside it.
"""
import os
import re
import subprocess


def public_names(src):
    """The names exports.map makes global: the public API."""
    with open(os.path.join(src, 'scripts-build', 'exports.map')) as f:
        text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
    block = re.search(r'global:(.*?)local:', text, re.S)
    return set(re.findall(r'([A-Za-z_]\w*)\s*;', block.group(1))) if block else set()


def library_objects(build, src):
    """obj/NAME.o of the library: one per source file of cpucycles/ (a
    counter's as counter-NAME.o), and the generated table options.o.
    Anything else there (configure's probes, the partial link behind
    libcpucycles.a, objects of files since removed) is not a file of the
    library as it stands."""
    objdir = os.path.join(build, 'obj')
    found = {}
    for name in sorted(os.listdir(objdir)):
        if not name.endswith('.o'):
            continue
        stem = name[:-2]
        source = stem[len('counter-'):] if stem.startswith('counter-') else stem
        if stem == 'options' or os.path.isfile(os.path.join(src, 'cpucycles', source + '.c')):
            found[stem] = os.path.join(objdir, name)
    return found


def symbols(nm, objects, *flags):
    """{object: the symbol names nm lists for it with these flags} (POSIX
    format), in one run of nm for them all: -A puts each object's path
    before its lines."""
    paths = sorted(objects.values())
    p = subprocess.run(nm + ['-A', '-P', '-g'] + list(flags) + paths, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        raise OSError('%s: %s' % (' '.join(nm), p.stderr.strip() or 'failed'))
    of_path = {path: o for o, path in objects.items()}
    names = {o: set() for o in objects}
    for line in p.stdout.splitlines():
        path, sep, rest = line.rpartition(': ')
        fields = rest.split()
        if sep and path in of_path and fields:
            names[of_path[path]].add(fields[0])
        elif line.strip():
            raise OSError('%s: a line of no object asked for: %r' % (' '.join(nm), line))
    return names


def cycles(graph):
    """One cycle (a list of nodes, first repeated last) for each strongly
    connected component of more than one file, or of one file that uses
    itself; Tarjan's algorithm, iterative."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    n = stack.pop()
                    on_stack.discard(n)
                    component.append(n)
                    if n == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    found.append(path_round(graph, set(component)))
    return found


def path_round(graph, component):
    """A cycle through the component's first file, by breadth-first search
    back to it inside the component."""
    start = min(component)
    previous = {start: None}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node]):
            if nxt == start:
                path = [node]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return list(reversed(path)) + [start]
            if nxt in component and nxt not in previous:
                previous[nxt] = node
                queue.append(nxt)
    return [start, start]


def levels(graph):
    """The files of an acyclic graph by height: a file's level is one above
    the highest of the files it uses (0: it uses none)."""
    height = {}

    def of(node):
        if node not in height:
            height[node] = 1 + max((of(n) for n in graph[node]), default=-1)
        return height[node]
    for node in graph:
        of(node)
    return [sorted(n for n in graph if height[n] == h) for h in range(max(height.values()) + 1)]


def check(t):
    src, build = t.src, t.build
    objdir = os.path.join(build, 'obj')
    if not os.path.isdir(objdir):
        t.skip('layers: no %s (the library is not built here)' % objdir)
        return
    objects = library_objects(build, src)
    if 'api' not in objects:
        t.skip('layers: no api.o among the objects in %s (the library is not built here)' % objdir)
        return
    nm = (t.cfg.get('NM') or 'nm').split()
    macho = t.cfg.get('OS') == 'macos'
    try:
        defined = symbols(nm, objects, '--defined-only')
        used = symbols(nm, objects, '-u')
    except OSError as e:
        t.skip('layers: cannot list the symbols of the objects: %s' % e)
        return

    def plain(name):
        return name[1:] if macho and name.startswith('_') else name

    owner = {}
    for o, names in defined.items():
        for n in names:
            owner.setdefault(plain(n), o)
    graph = {o: set() for o in objects}
    why = {}
    for o, names in used.items():
        for n in sorted(names):
            d = owner.get(plain(n))
            if d is not None and d != o:
                graph[o].add(d)
                why.setdefault((o, d), plain(n))

    found = cycles(graph)
    for c in found:
        print('# cycle: ' + c[0] + ''.join(
            ' -[%s]-> %s' % (why.get((a, b), '?'), b) for a, b in zip(c, c[1:])))
    if not found:
        print('# layers, bottom first: ' + ' | '.join(' '.join(level) for level in levels(graph)))
    edges = sum(len(v) for v in graph.values())
    t.result(not found, 'layers: the call graph of the %d library files (%d uses) has no cycle'
             % (len(objects), edges) + ('' if not found else ' (%d found)' % len(found)))

    api = public_names(src)
    up = sorted((o, plain(n)) for o, names in used.items() if o != 'api'
                for n in names if plain(n) in api)
    for o, n in up:
        print('# %s.o calls the public %s' % (o, n))
    t.result(bool(api) and not up, 'layers: no file below api.c uses the public API (%s)'
             % ', '.join(sorted(api)) if api else 'layers: exports.map names the public API')
