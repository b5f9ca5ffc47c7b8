"""Gold locations from a task's patch: the files it changes and the functions enclosing its hunks."""
import ast
import re

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def patch_changes(patch):
    """{old path: (changed old lines, [(line before, line after) of pure insertions])}.

    Removed lines are changed lines of the old file; an added line is an insertion between two
    old lines. New files (--- /dev/null) are left out: nothing to localize before they exist.
    """
    changes = {}
    path = None
    old = 0
    for line in patch.splitlines():
        if line.startswith("--- "):
            name = line[4:].split("\t")[0].strip()
            path = None if name == "/dev/null" else re.sub(r"^a/", "", name)
            if path is not None:
                changes.setdefault(path, (set(), []))
            continue
        if line.startswith("+++ "):
            continue
        match = HUNK.match(line)
        if match:
            old = int(match.group(1))
            continue
        if path is None or not line:
            continue
        tag = line[0]
        if tag == " ":
            old += 1
        elif tag == "-":
            changes[path][0].add(old)
            old += 1
        elif tag == "+":
            changes[path][1].append((old - 1, old))
    return changes


def function_spans(source):
    """[(first line, last line, qualified name)] of every function, decorators included."""
    spans = []

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                if not isinstance(child, ast.ClassDef):
                    spans.append((first, child.end_lineno, name))
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(source), "")
    return spans


def innermost(spans, line):
    """The qualified name of the innermost function containing `line`, or None."""
    best = None
    for first, last, name in spans:
        if first <= line <= last and (best is None or first >= best[0]):
            best = (first, name)
    return best[1] if best else None


def gold_locations(checkout, patch):
    """(files, functions) the patch changes, as ids relative to the checkout (path:Qualified.name).

    A changed (removed) line belongs to the innermost function around it; an inserted line to
    the innermost function around both of its neighbours, so a new function added between two
    others names neither. Lines outside every function (module or class level) name no function.
    """
    files = []
    functions = []
    for path, (lines, insertions) in sorted(patch_changes(patch).items()):
        files.append(path)
        try:
            with open(f"{checkout}/{path}", encoding="utf-8", errors="replace") as f:
                spans = function_spans(f.read())
        except (OSError, SyntaxError, ValueError):
            continue
        found = set()
        for line in lines:
            name = innermost(spans, line)
            if name:
                found.add(name)
        for before, after in insertions:
            a, b = innermost(spans, before), innermost(spans, after)
            if a and a == b:
                found.add(a)
        functions.extend(f"{path}:{name}" for name in sorted(found))
    return files, functions

