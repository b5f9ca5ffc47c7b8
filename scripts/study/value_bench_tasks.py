#!/usr/bin/env python3
"""Study tasks (docs/study.md) from a value-bench checkout: bug-fix commits of real projects.

value-bench keeps one git bundle per project (repos/NAME.bundle, whole history) and tasks.jsonl
(id, base_commit, fix_commit, query, ...). This writes OUT/repos/NAME.git (bare clones of the
bundles, made once) and OUT/tasks.jsonl: repo = the bare clone, problem_statement = the query,
patch = the fix's diff of the files value-bench counts as gold (its code files), so the harness
derives gold locations the way it always does.

  value_bench_tasks.py VALUE_BENCH OUT [--per-project N] [--projects click,attrs] [--code-words]

--code-words keeps only tasks whose query has a word that looks like code (snake_case, camelCase
or `name(`): what a grep-driven agent needs to start from.
"""
import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

CODE_WORD = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")


def looks_like_code(text):
    for match in CODE_WORD.finditer(text):
        word = match.group(0)
        if len(word) > 2 and ("_" in word.strip("_") or re.search(r"[a-z][A-Z]", word) or
                              text.startswith("(", match.end())):
            return True
    return "`" in text


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("value_bench")
    p.add_argument("out")
    p.add_argument("--per-project", type=int, default=2)
    p.add_argument("--projects", help="comma-separated bundle names (default: all)")
    p.add_argument("--code-words", action="store_true")
    args = p.parse_args(argv)
    bench, out = Path(args.value_bench), Path(args.out).resolve()
    (out / "repos").mkdir(parents=True, exist_ok=True)
    wanted = set(args.projects.split(",")) if args.projects else None
    taken, tasks = {}, []
    for line in (bench / "tasks.jsonl").read_text().splitlines():
        task = json.loads(line)
        project = task["id"].rsplit("-", 1)[0]
        if (wanted and project not in wanted) or taken.get(project, 0) >= args.per_project:
            continue
        if args.code_words and not looks_like_code(task["query"]):
            continue
        repo = out / "repos" / f"{project}.git"
        if not repo.exists():
            git("clone", "--quiet", "--bare", str(bench / "repos" / f"{project}.bundle"), str(repo))
        patch = git("--git-dir", str(repo), "diff", task["base_commit"], task["fix_commit"], "--",
                    *task["gold_files"])
        tasks.append({"id": task["id"], "repo": str(repo), "base_commit": task["base_commit"],
                      "problem_statement": task["query"], "patch": patch})
        taken[project] = taken.get(project, 0) + 1
    (out / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks))
    print(f"{len(tasks)} tasks in {out / 'tasks.jsonl'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
