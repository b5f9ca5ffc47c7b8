#!/usr/bin/env python3
"""A deterministic agent for testing the study harness: no model, only tools an agent would use.

It greps the mount for every `backticked` identifier of the statement on stdin (one `grep -rlw`
search each), reads every hit with `cat` (one visit each), then follows the CALLED_BY links the
tag blocks it read show for the definitions it cares about (the named ones, then their callers),
reading each linked file it has not read yet. Answer (docs/study.md format): files ranked
defining files first, then other hits, then followed files; functions ranked the named
definitions, then their callers in the order the links were followed. Run with cwd = the mount.
"""
import ast
import json
import os
import re
import subprocess
import sys

FIELD = re.compile(r"^\s*# (CALLED_BY|function): (.*)$")
DELIMITER = re.compile(r"^\s*# === (Function|Class|File) Annotation ===$")


def cat(path):
    return subprocess.run(["cat", path], check=True, capture_output=True, text=True).stdout


def definitions(text):
    """{qualified name: kind} of the functions in a Python text (tags are comments)."""
    names = []

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if not isinstance(child, ast.ClassDef):
                    names.append(prefix + child.name)
                walk(child, prefix + child.name + ".")

    try:
        walk(ast.parse(text), "")
    except SyntaxError:
        pass
    return names


def callers(text, path):
    """{function id: [caller ids]} from the tag blocks of a file read through the mount."""
    links = {}
    current = None
    for line in text.splitlines():
        if DELIMITER.match(line):
            continue
        match = FIELD.match(line)
        if not match:
            continue
        if match.group(1) == "function":
            current = match.group(2).strip()
            links.setdefault(current, [])
            continue
        for value in match.group(2).split(", "):
            value = value.strip()
            if value.startswith("\u2026"):
                break
            if ":" in value:
                links[current].append(value)
            elif not value.endswith(".py"):  # a local name; a path is module-level code
                links[current].append(f"{path}:{value}")
    return links


def main():
    statement = sys.stdin.read()
    identifiers = list(dict.fromkeys(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", statement)))
    hits = []
    for identifier in identifiers:
        found = subprocess.run(["grep", "-rlw", "--include=*.py", identifier, "."],
                               capture_output=True, text=True).stdout.split()
        hits.extend(p[2:] if p.startswith("./") else p for p in sorted(found))
    hits = list(dict.fromkeys(hits))

    texts = {}
    for path in hits:
        texts[path] = cat(path)
    named = [f"{p}:{name}" for p in hits for name in definitions(texts[p])
             if name.split(".")[-1] in identifiers]
    defining = list(dict.fromkeys(n.split(":")[0] for n in named))

    links = {}
    for path in hits:
        links.update(callers(texts[path], path))
    functions = list(named)
    followed = []
    queue = list(named)
    while queue:
        current = queue.pop(0)
        for caller in links.get(current, []):
            if caller in functions:
                continue
            functions.append(caller)
            queue.append(caller)
            path = caller.split(":")[0]
            if path not in texts:
                texts[path] = cat(path)
                followed.append(path)
                links.update(callers(texts[path], path))

    files = list(dict.fromkeys(defining + hits + followed))
    answer = {"files": files, "functions": functions}
    with open(os.environ["ANCHORFS_STUDY_ANSWER"], "w") as f:
        json.dump(answer, f)
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
