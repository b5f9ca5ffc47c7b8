#!/usr/bin/env python3
"""A deterministic agent for testing the study harness: no model, only tools an agent would use.

It greps the mount for the statement's identifiers (the `backticked` ones; without any, the
words that look like code) with one `grep -rnwZ` search each, reads the best hits with `cat`
(one visit each: files defining an identifier first, then files matching more identifiers),
then follows the CALLED_BY links the tag blocks it read show for the named definitions (the
functions and classes the identifiers name: a class's callers construct or raise it), breadth
first, reading each linked file it has not read yet. Tags of either style
are read through scripts/study/tags.py, the format's one reader. Following is bounded the way an
agent's context bounds it: links at most --max-depth steps from a named definition, at most
--max-visits files read in all (hits first, at most --max-hits of them).

Answer (docs/study.md format): files ranked defining files first, then other hits, then followed
files; functions ranked the named functions, then the callers in the order they were followed,
then the methods of named classes. Run with cwd = the mount; what it read goes to stderr.
"""
import argparse
import ast
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "study"))
import tags  # noqa: E402

CODE_WORD = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--max-depth", type=int, default=2, help="CALLED_BY steps from a named "
                   "definition (0: follow nothing)")
    p.add_argument("--max-visits", type=int, default=16, help="files read in all")
    p.add_argument("--max-hits", type=int, default=8, help="search hits read")
    p.add_argument("--max-identifiers", type=int, default=5, help="searches run")
    return p.parse_args(argv)


def identifiers_of(statement, limit):
    """The backticked identifiers; else words that look like code (snake_case, camelCase, or
    called: `name(`), in order of appearance."""
    named = re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", statement)
    if not named:
        for match in CODE_WORD.finditer(statement):
            word = match.group(0)
            called = statement.startswith("(", match.end())
            if ("_" in word.strip("_") or re.search(r"[a-z][A-Z]", word) or called) and \
                    len(word) > 2:
                named.append(word)
    return list(dict.fromkeys(named))[:limit]


def cat(path):
    out = subprocess.run(["cat", "--", path], capture_output=True).stdout
    return out.decode("utf-8", errors="replace")


def grep(identifier):
    """{path: whether a matching line defines the identifier} for one search."""
    out = subprocess.run(["grep", "-rnwZ", "--include=*.py", "--", identifier, "."],
                         capture_output=True).stdout
    defines = re.compile(rb"^\d+:\s*(?:async\s+)?(?:def|class)\s+" + re.escape(identifier.encode())
                         + rb"\b")
    found = {}
    for line in out.split(b"\n"):
        path, zero, text = line.partition(b"\0")
        if not zero:
            continue
        path = os.fsdecode(path)
        path = path[2:] if path.startswith("./") else path
        found[path] = found.get(path, False) or bool(defines.match(text))
    return found


def repository_files():
    """Every file of the mount, relative (lean's short paths read back against them). Listing
    directories makes no step in the trace."""
    files = set()
    for root, dirs, names in os.walk("."):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in names:
            files.add(os.path.relpath(os.path.join(root, name), "."))
    return files


def definitions(text):
    """[(qualified name, kind, 0-based index of its first line, decorators included)] of the
    classes and functions of a Python text (tags are comments); [] when it does not parse."""
    found = []

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                kind = "class" if isinstance(child, ast.ClassDef) else "function"
                found.append((prefix + child.name, kind, first - 1))
                walk(child, prefix + child.name + ".")

    try:
        walk(ast.parse(text), "")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass
    return found


class Reader:
    """What the agent has read: texts, their definitions, and the links their tags show."""

    def __init__(self, files, max_visits):
        self.files = files
        self.max_visits = max_visits
        self.texts = {}
        self.defs = {}
        self.called_by = {}  # full id -> [caller reference: (path, written name or None)]
        self.seen = Counter()  # (style, kind) -> blocks read

    def read(self, path):
        if path in self.texts or len(self.texts) >= self.max_visits:
            return path in self.texts
        text = cat(path)
        self.texts[path] = text
        self.defs[path] = definitions(text)
        for block in tags.blocks(text):
            self.seen[(block.style, block.kind)] += 1
            entity = self.block_id(path, block)
            if entity is None:
                continue
            for value in block.fields.get("CALLED_BY", []):
                reference = self.reference(path, value)
                if reference:
                    self.called_by.setdefault(entity, []).append(reference)
        return True

    def names(self, path):
        return [name for name, _, _ in self.defs.get(path, [])]

    def block_id(self, path, block):
        """The full id of the entity a block tags: paper names it; a lean header's name is read
        back from the definition the block sits above (else among the file's names)."""
        if block.kind == "file":
            return tags.resolve_path(block.name, self.files) or path
        if block.style == "paper":
            return block.name
        for name, kind, first in self.defs[path]:
            if first == block.next_line and kind == block.kind:
                return f"{path}:{name}"
        name = tags.resolve_name(block.name, self.names(path))
        return f"{path}:{name}" if name else None

    def reference(self, path, value):
        """(file path, name as written or None for the file itself) of a value, or None when it
        names nothing in the repository (a label, an ambiguous short path)."""
        part, name = tags.split_reference(value)
        if part is None:
            kind, resolved = tags.resolve_plain(value, self.files, self.names(path))
            return (resolved, None) if kind == "file" else (path, value)
        resolved = tags.resolve_path(part, self.files)
        return (resolved, name) if resolved else None

    def full_id(self, path, written):
        """path:Qualified.name for a written (possibly short) name, once the file is read."""
        resolved = tags.resolve_name(written, self.names(path)) if path in self.texts else None
        return f"{path}:{resolved or written}"


def main(argv=None):
    args = parse_args(argv)
    statement = sys.stdin.read()
    identifiers = identifiers_of(statement, args.max_identifiers)
    matches, defining_hits = Counter(), set()
    for identifier in identifiers:
        for path, defines in grep(identifier).items():
            matches[path] += 1
            if defines:
                defining_hits.add(path)
    # Files defining an identifier first, then those matching more of them, then by path.
    hits = sorted(matches, key=lambda p: (p not in defining_hits, -matches[p], p))[:args.max_hits]

    reader = Reader(repository_files(), args.max_visits)
    for path in hits:
        reader.read(path)
    named = [(f"{p}:{name}", kind) for p in hits for name, kind, _ in reader.defs.get(p, [])
             if name.split(".")[-1] in identifiers]
    defining = list(dict.fromkeys(n.split(":")[0] for n, _ in named))
    methods = [f"{p}:{name}" for p in hits for name, kind, _ in reader.defs.get(p, [])
               if kind == "function" and f"{p}:{name.rpartition('.')[0]}" in
               {n for n, k in named if k == "class"}]

    functions = [n for n, kind in named if kind == "function"]
    roots = len(functions)
    followed = []
    queue = [(n, 0) for n, _ in named]
    while queue:
        current, depth = queue.pop(0)
        if depth >= args.max_depth:
            continue
        for path, written in reader.called_by.get(current, []):
            if written is None:
                continue  # module-level code of a file: no function to name
            if path not in reader.texts:
                if not reader.read(path):
                    continue  # the visit budget is spent
                followed.append(path)
            caller = reader.full_id(path, written)
            if caller not in functions:
                functions.append(caller)
                queue.append((caller, depth + 1))
    links = len(functions) - roots
    functions += [m for m in methods if m not in functions]

    files = list(dict.fromkeys(defining + hits + followed))
    answer = {"files": files, "functions": functions}
    if os.environ.get("ANCHORFS_STUDY_ANSWER"):  # else stdout's last line is the answer
        with open(os.environ["ANCHORFS_STUDY_ANSWER"], "w") as f:
            json.dump(answer, f)
    seen = ", ".join(f"{style} {kind} {n}" for (style, kind), n in sorted(reader.seen.items()))
    print(f"identifiers {identifiers}; read {len(reader.texts)} files; followed "
          f"{links} links into {len(followed)} unread files; "
          f"blocks: {seen or 'none'}", file=sys.stderr)
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
