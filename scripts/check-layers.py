#!/usr/bin/env python3
"""Checks that the folders of Sources/Cadence depend on each other only downwards.

Each folder is a layer (Sources/Cadence/Cadence.docc/Architecture.md, "The layers"). A file
depends on a folder when it mentions, outside comments and string literals, a type declared
there (struct, class, enum, protocol, actor or typealias; a nested type when named through its
parent, or inside an extension of it). The check fails when a folder mentions a type of a folder
ranked above it in LAYERS. `--graph` prints every folder's uses of the others and the loops
among them instead. Python 3's standard library only.
"""
import collections
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "Cadence")

# Lowest first. Folders of one rank may use each other; a folder not listed is not checked:
# Documents, whose samples parse their bodies with Import's XML reader while Model's sample
# kinds, the store and the queries name them.
LAYERS = [
    ["Support"],
    ["Columns"],
    ["Time"],
    ["Model"],
    ["Storage"],
    ["Storage/Scan"],
    ["Store"],
    ["Query/Execution"],
    ["Query"],
    ["Import", "Arrow", "Generate"],
]
# Subfolders that are layers of their own; any other subfolder belongs to its top folder.
OWN = {"Storage/Scan", "Query/Execution"}

TOKEN = re.compile(r"([{}])|\b(struct|class|enum|protocol|actor|typealias|extension)\s+([A-Za-z_][\w.]*)")
QUALIFIED = re.compile(r"\b([A-Za-z_]\w*)\s*\.\s*([A-Z]\w*)")
WORD = re.compile(r"\b[A-Za-z_]\w*\b")
# Words after `class` that make it a modifier rather than a declaration.
NOT_TYPE_AFTER_CLASS = {"func", "var", "let", "subscript", "override", "final", "private",
                        "fileprivate", "internal", "public", "package", "static", "init"}


def code_of(text):
    """The text without comments and string literals (what they name is no dependency)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            i = n if j < 0 else j + 3
            out.append('""')
        elif text[i] == '"':
            i += 1
            while i < n and text[i] not in '"\n':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def folder_of(path):
    parts = os.path.relpath(os.path.dirname(path), ROOT).replace(os.sep, "/").split("/")
    return "/".join(parts[:2]) if "/".join(parts[:2]) in OWN else parts[0]


def uses(files):
    """{user folder: {declaring folder: {(type, file)}}} and the names declared in two folders."""
    declared = collections.defaultdict(set)  # name (Parent.Inner when nested) -> folders
    extended = {}  # file -> the types it declares or extends
    for path, code in files.items():
        stack, pending, seen = [], None, set()
        for match in TOKEN.finditer(code):
            brace, kind, name = match.groups()
            if brace == "{":
                stack.append(pending)
                pending = None
            elif brace == "}":
                if stack:
                    stack.pop()
            elif not (kind == "class" and name in NOT_TYPE_AFTER_CLASS):
                last = name.split(".")[-1]
                seen.add(last)
                if kind != "extension":
                    parent = next((s for s in reversed(stack) if s), None)
                    declared[f"{parent}.{last}" if parent else last].add(folder_of(path))
                if kind != "typealias":
                    pending = last
        extended[path] = seen
    ambiguous = sorted(name for name, folders in declared.items() if len(folders) > 1)
    owner = {name: next(iter(folders)) for name, folders in declared.items() if len(folders) == 1}
    nested = collections.defaultdict(list)  # Inner -> [(Parent, folder)]
    for name, home in owner.items():
        if "." in name:
            parent, inner = name.split(".")
            nested[inner].append((parent, home))
    found = collections.defaultdict(lambda: collections.defaultdict(set))
    for path, code in files.items():
        user, where = folder_of(path), os.path.relpath(path, ROOT)
        qualified = set(QUALIFIED.findall(code))
        for name in set(WORD.findall(code)):
            home = owner.get(name)
            if home and home != user:
                found[user][home].add((name, where))
            # A nested type is reachable by its bare name only inside its parent's extensions.
            for parent, home in nested.get(name, ()):
                if home != user and ((parent, name) in qualified or parent in extended[path]):
                    found[user][home].add((f"{parent}.{name}", where))
    return found, ambiguous


def loops(found):
    """The sets of two or more folders that reach each other (Tarjan's components)."""
    graph = {user: set(homes) for user, homes in found.items()}
    index, low, stack, components = {}, {}, [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(set(graph) | {w for ws in graph.values() for w in ws}):
        if v not in index:
            visit(v)
    return components


def describe(mentions):
    files = collections.defaultdict(set)
    for name, where in mentions:
        files[name].add(os.path.basename(where))
    return ", ".join(f"{name} ({', '.join(sorted(paths))})" for name, paths in sorted(files.items()))


def main():
    files = {}
    for directory, _, names in os.walk(ROOT):
        for name in names:
            if name.endswith(".swift"):
                with open(os.path.join(directory, name), encoding="utf-8") as handle:
                    files[os.path.join(directory, name)] = code_of(handle.read())
    found, ambiguous = uses(files)
    if "--graph" in sys.argv[1:]:
        for user in sorted(found):
            for home in sorted(found[user]):
                print(f"{user} -> {home}: {describe(found[user][home])}")
        print("loops:" if loops(found) else "no loops")
        for component in loops(found):
            print("  " + " <-> ".join(component))
        return 0
    rank = {folder: level for level, folders in enumerate(LAYERS) for folder in folders}
    failures = [f"{user} uses {home}, a layer above it: {describe(found[user][home])}"
                for user in sorted(found) for home in sorted(found[user])
                if user in rank and home in rank and rank[home] > rank[user]]
    # A type declared in two folders is not attributed to either: name it apart instead.
    failures += [f"{name} is declared in more than one folder" for name in ambiguous]
    for failure in failures:
        print(f"check-layers: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
