#!/usr/bin/env bash
# Checks scripts/gen_synthetic.py: output compiles (py_compile), is byte-identical for the same seed,
# differs for another seed, has packages with __init__.py and relative imports, and hits the size asked.
set -euo pipefail
src="$1" out="$2"
gen="$src/scripts/gen_synthetic.py"
rm -rf "$out" && mkdir -p "$out"
python3 "$gen" --lines 20k --seed 7 --out "$out/a" >/dev/null
python3 "$gen" --lines 20k --seed 7 --out "$out/b" >/dev/null
python3 "$gen" --lines 20k --seed 8 --out "$out/c" >/dev/null
diff -r "$out/a" "$out/b" >/dev/null || { echo "same seed produced different trees" >&2; exit 1; }
if diff -r "$out/a" "$out/c" >/dev/null; then echo "different seeds produced the same tree" >&2; exit 1; fi
python3 - "$out/a" <<'PY'
import ast, os, py_compile, sys
root = sys.argv[1]
files = sorted(os.path.join(d, n) for d, _, ns in os.walk(root) for n in ns if n.endswith(".py"))
lines = 0
kinds = {"relative": 0, "absolute": 0, "class_base": 0, "decorated": 0, "nested": 0, "init": 0}
for path in files:
    py_compile.compile(path, cfile=os.path.join(root, "..", "check.pyc"), doraise=True)
    text = open(path, encoding="utf-8").read()
    lines += text.count("\n")
    tree = ast.parse(text)
    kinds["init"] += path.endswith("__init__.py")
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            kinds["relative" if node.level else "absolute"] += 1
        elif isinstance(node, ast.ClassDef) and any(isinstance(b, ast.Name) and b.id != "object" for b in node.bases):
            kinds["class_base"] += 1
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            kinds["decorated"] += bool(node.decorator_list)
            kinds["nested"] += any(isinstance(c, ast.FunctionDef) for c in ast.walk(node) if c is not node)
missing = [k for k, v in kinds.items() if v == 0]
if missing:
    sys.exit(f"synthetic tree lacks {missing}: {kinds}")
if not 20000 <= lines <= 21500:
    sys.exit(f"asked for 20k lines, got {lines}")
print(f"{len(files)} files, {lines} lines, {kinds}")
PY
