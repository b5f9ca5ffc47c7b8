#!/usr/bin/env python3
"""Prints the shape of a Python tree (file and function sizes, classes, bases, imports, callees per
function) so synthetic corpora can be compared with real ones: scripts/bench/shape.py DIR..."""

import ast
import builtins
import os
import statistics
import sys

BUILTINS = set(dir(builtins))


def shape(root):
    files = lines = classes = bases = imports = 0
    callees = []
    for dirpath, _, names in os.walk(root):
        for name in names:
            if not name.endswith(".py"):
                continue
            with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                text = f.read()
            files += 1
            lines += text.count("\n")
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    called = set()
                    for call in ast.walk(node):
                        if isinstance(call, ast.Call):
                            if isinstance(call.func, ast.Name) and call.func.id not in BUILTINS:
                                called.add(call.func.id)
                            elif isinstance(call.func, ast.Attribute):
                                called.add(call.func.attr)
                    callees.append(len(called))
                elif isinstance(node, ast.ClassDef):
                    classes += 1
                    bases += len(node.bases)
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    imports += 1
    functions = len(callees)
    return [os.path.basename(os.path.normpath(root)), files, lines, f"{lines / max(files, 1):.0f}", functions,
            f"{lines / max(functions, 1):.1f}", classes, f"{bases / max(classes, 1):.2f}",
            f"{imports / max(files, 1):.1f}", f"{statistics.mean(callees) if callees else 0:.2f}"]


def main():
    headers = ["tree", "files", "lines", "lines/file", "functions", "lines/function", "classes",
               "bases/class", "imports/file", "distinct callees/function"]
    print("| " + " | ".join(headers) + " |")
    print("|" + "|".join(" --- " for _ in headers) + "|")
    for root in sys.argv[1:]:
        print("| " + " | ".join(str(c) for c in shape(root)) + " |")


if __name__ == "__main__":
    main()
