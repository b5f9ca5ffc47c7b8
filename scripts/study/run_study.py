#!/usr/bin/env python3
"""Reruns the CodeAnchor study with any agent over anchorfs views (docs/study.md).

For every task x condition (a view, or view/style) x repeat: a checkout of the base commit, a
fresh traced mount, the agent run in it with a time limit, its answer and its trace; then File@k,
Func@k, Pass@k, Rounds and LFR with mean +- std over repeats and bootstrap CIs, as results.json,
results.md and PNG plots. A run whose agent fails (non-zero exit, time limit) or whose mount fails
is an error row, left out of the measures, and makes the exit status 1 unless --allow-failures.
"""
import argparse
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gold  # noqa: E402
import metrics  # noqa: E402


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tasks", required=True, help="JSONL: id, repo, base_commit, "
                   "problem_statement, patch")
    p.add_argument("--agent", required=True, help="shell command template run in the mount; "
                   "placeholders {statement} (quoted), {statement_file}, {answer}, {mount}, {task}; "
                   "the statement is also on stdin")
    p.add_argument("--views", default="none,topo", help="comma-separated conditions: an anchorfs "
                   "view, or VIEW/STYLE (topo/lean) to compare styles in one study")
    p.add_argument("--style", help="tag style for conditions that name none (mount --style)")
    p.add_argument("--max-links", type=int, help="mount --max-links")
    p.add_argument("--tag-budget", type=float, help="mount --tag-budget")
    p.add_argument("--mount-opt", action="append", default=[], metavar="OPTION",
                   help="any other mount option, passed as given (repeatable), e.g. "
                   "--mount-opt=--hub-threshold=20")
    p.add_argument("--allow-failures", action="store_true", help="exit 0 even when runs failed")
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--anchorfs", default=shutil.which("anchorfs") or "anchorfs")
    p.add_argument("--timeout", type=float, default=1800, help="agent time limit, seconds")
    p.add_argument("--k", default="1,3,5", help="cut-offs for File@k, Func@k and Pass@k")
    p.add_argument("--success", default="func@5", help="what a successful run is, for Pass@k: "
                   "func@K or file@K")
    p.add_argument("--cache-dir", help="anchorfs cache shared by every mount (default: a "
                   "fresh temporary one per mount)")
    p.add_argument("--workdir", help="checkouts, mounts and traces (default: OUT/work)")
    p.add_argument("--keep-checkouts", action="store_true", help="keep each run's clone (the "
                   "report reads lexical evidence from it; by default it is measured, then removed)")
    p.add_argument("--no-plots", action="store_true")
    return p.parse_args(argv)


def git(*args, cwd=None):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


def checkout(task, dest):
    """A fresh clone of the task's repository at its base commit."""
    if dest.exists():
        shutil.rmtree(dest)
    git("clone", "--quiet", "--no-checkout", task["repo"], str(dest))
    git("-c", "advice.detachedHead=false", "checkout", "--quiet", task["base_commit"], cwd=dest)


def wait_for(predicate, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def trace_closed(path):
    try:
        with open(path, "rb") as f:
            f.seek(max(0, os.path.getsize(path) - 4096))
            return b'"type":"end"' in f.read()
    except OSError:
        return False


def run_agent(template, task, mount, answer, statement_file, timeout):
    command = template.format(statement=shlex.quote(task["problem_statement"]),
                              statement_file=shlex.quote(str(statement_file)),
                              answer=shlex.quote(str(answer)), mount=shlex.quote(str(mount)),
                              task=shlex.quote(task["id"]))
    env = dict(os.environ, ANCHORFS_STUDY_ANSWER=str(answer), ANCHORFS_STUDY_MOUNT=str(mount))
    started = time.monotonic()
    # Its own session: the trace report groups the agent's processes by session id.
    proc = subprocess.Popen(["/bin/sh", "-c", command], cwd=mount, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(task["problem_statement"], timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        timed_out = True
    return {"exit_code": proc.returncode, "timed_out": timed_out, "stdout": out, "stderr": err,
            "seconds": time.monotonic() - started}


def read_answer(answer_path, stdout):
    """The answer file, else the last line of stdout that is a JSON object."""
    texts = []
    if answer_path.exists():
        texts.append(answer_path.read_text())
    texts.extend(reversed([line for line in stdout.splitlines() if line.startswith("{")]))
    for text in texts:
        try:
            answer = json.loads(text)
        except ValueError:
            continue
        if isinstance(answer, dict):
            return {"files": [str(f) for f in answer.get("files", [])],
                    "functions": [str(f) for f in answer.get("functions", [])]}
    return {"files": [], "functions": []}


def trace_header(trace):
    """The trace's header line (the mount's view, style and options as the daemon recorded them)."""
    try:
        with open(trace) as f:
            header = json.loads(f.readline())
    except (OSError, ValueError):
        return None
    return header if header.get("type") == "header" else None


def mount_options(args, condition):
    """The mount options of a condition (VIEW or VIEW/STYLE), beyond the repository and paths."""
    view, _, style = condition.partition("/")
    options = ["--view", view]
    style = style or args.style
    if style:
        options += ["--style", style]
    if args.max_links is not None:
        options += ["--max-links", str(args.max_links)]
    if args.tag_budget is not None:
        options += ["--tag-budget", f"{args.tag_budget:g}"]
    return options + list(args.mount_opt)


def tail(text, lines=3):
    return " / ".join(line.strip() for line in text.strip().splitlines()[-lines:])


def trace_measures(anchorfs, trace):
    report = json.loads(subprocess.run([anchorfs, "trace", "report", "--json", str(trace)],
                                       check=True, capture_output=True, text=True).stdout)
    run = report["runs"][0]
    if not run["sessions"]:
        return {"rounds": 0, "hops": 0, "structural": 0, "lexical": 0, "exploratory": 0,
                "searches": 0, "visits": 0, "lfr": None, "trajectory": []}
    session = run["sessions"][run["primary"]]
    m = dict(session["metrics"])
    m["lfr"] = m["lfr"] if m["hops"] > 0 else None
    m["trajectory"] = [s["path"] for s in session["steps"] if s["kind"] == "visit"]
    m["dropped"] = run["dropped"]
    return m


def one_run(args, task, view, repeat, work):
    name = f"{task['id']}.{view.replace('/', '-')}.{repeat}"
    base = work / name
    if base.exists():
        shutil.rmtree(base)
    base.mkdir(parents=True)
    repo, mount = base / "checkout", base / "mnt"
    mount.mkdir()
    trace, answer = base / "trace.jsonl", base / "answer.json"
    statement_file = base / "statement.txt"
    statement_file.write_text(task["problem_statement"])
    checkout(task, repo)
    gold_files, gold_functions = gold.gold_locations(repo, task["patch"])
    cache = args.cache_dir or tempfile.mkdtemp(prefix="anchorfs-study-cache-")
    options = mount_options(args, view)
    command = [args.anchorfs, "mount", str(repo), str(mount), *options, "--no-watch",
               "--trace", str(trace), "--cache-dir", cache]
    result = {"task": task["id"], "view": view, "repeat": repeat, "trace": str(trace),
              "gold_files": gold_files, "gold_functions": gold_functions,
              "mount_options": options, "answer": {"files": [], "functions": []},
              "agent": None, "trace_header": None, "trace_measures": None, "error": None}
    mounted = subprocess.run(command, capture_output=True, text=True)
    if mounted.returncode != 0:
        result["error"] = f"mount failed (exit {mounted.returncode}): {tail(mounted.stderr)}"
        if not args.cache_dir:
            shutil.rmtree(cache, ignore_errors=True)
        return result
    try:
        agent = run_agent(args.agent, task, mount, answer, statement_file, args.timeout)
    finally:
        subprocess.run([args.anchorfs, "unmount", str(mount)], capture_output=True, text=True)
        if not wait_for(lambda: trace_closed(trace), 30):
            print(f"warning: {name}: trace not closed", file=sys.stderr)
        if not args.cache_dir:
            shutil.rmtree(cache, ignore_errors=True)
    (base / "agent.log").write_text(agent["stdout"] + "\n--- stderr ---\n" + agent["stderr"])
    result["answer"] = read_answer(answer, agent["stdout"])
    result["agent"] = {k: agent[k] for k in ("exit_code", "timed_out", "seconds")}
    result["trace_header"] = trace_header(trace)
    if agent["timed_out"]:
        result["error"] = f"agent timed out after {args.timeout:g} s"
    elif agent["exit_code"] != 0:
        result["error"] = f"agent exit {agent['exit_code']}: {tail(agent['stderr'])}"
    try:
        result["trace_measures"] = trace_measures(args.anchorfs, trace)
    except (subprocess.CalledProcessError, ValueError, KeyError, IndexError) as error:
        detail = tail(error.stderr) if isinstance(error, subprocess.CalledProcessError) else error
        result["error"] = result["error"] or f"trace report failed: {detail}"
    if not args.keep_checkouts:
        shutil.rmtree(repo, ignore_errors=True)
    return result


def score(result, ks):
    answer = result["answer"]
    row = {}
    for k in ks:
        row[f"File@{k}"] = metrics.hit_at_k(answer["files"], result["gold_files"], k)
        row[f"Func@{k}"] = metrics.hit_at_k(answer["functions"], result["gold_functions"], k)
    measures = result["trace_measures"] or {}
    row["Rounds"] = measures.get("rounds")
    row["LFR"] = measures.get("lfr")
    return row


def success(result, rule):
    kind, k = rule.lower().split("@")
    ranked = result["answer"]["functions" if kind == "func" else "files"]
    gold_set = result["gold_functions" if kind == "func" else "gold_files"]
    return metrics.hit_at_k(ranked, gold_set, int(k)) == 1.0


def aggregate(results, views, ks, rule, repeats):
    """Per view: each measure's mean +- std over repeats (of the mean over tasks) and a
    bootstrap CI over tasks (of each task's mean over repeats); Pass@k per task from its
    repeats, averaged over tasks."""
    tasks = sorted({r["task"] for r in results})
    names = [f"File@{k}" for k in ks] + [f"Func@{k}" for k in ks] + ["Rounds", "LFR"]
    table = {}
    for view in views:
        rows = [r for r in results if r["view"] == view and not r["error"]]
        entry = {"failed": sum(1 for r in results if r["view"] == view and r["error"])}
        for name in names:
            per_repeat = [metrics.mean([r["scores"][name] for r in rows if r["repeat"] == rep])
                          for rep in range(repeats)]
            per_task = [metrics.mean([r["scores"][name] for r in rows if r["task"] == t])
                        for t in tasks]
            entry[name] = {"mean": metrics.mean(per_repeat), "std": metrics.std(per_repeat),
                           "ci95": metrics.bootstrap_ci(per_task),
                           "per_task": dict(zip(tasks, per_task))}
        for k in ks:
            per_task = []
            for t in tasks:
                runs = [r for r in rows if r["task"] == t]
                c = sum(success(r, rule) for r in runs)
                per_task.append(metrics.pass_at_k(len(runs), c, k) if runs else None)
            entry[f"Pass@{k}"] = {"mean": metrics.mean(per_task), "std": None,
                                  "ci95": metrics.bootstrap_ci(per_task),
                                  "per_task": dict(zip(tasks, per_task))}
        table[view] = entry
    return table


def stability(args, results, views):
    """Run-to-run stability per task and view, from the traces (anchorfs trace report)."""
    out = {}
    for view in views:
        for task in sorted({r["task"] for r in results}):
            traces = [r["trace"] for r in results
                      if r["view"] == view and r["task"] == task and not r["error"]]
            if len(traces) < 2:
                continue
            report = json.loads(subprocess.run([args.anchorfs, "trace", "report", "--json",
                                                *traces], check=True, capture_output=True,
                                               text=True).stdout)
            out.setdefault(view, {})[task] = report["stability"]
    return out


def fmt(value, digits=3):
    return "–" if value is None else f"{value:.{digits}f}"


def markdown(table, stab, views, ks, n_tasks, repeats, rule, results, mounts, plots_note):
    names = ([f"File@{k}" for k in ks] + [f"Func@{k}" for k in ks] +
             [f"Pass@{k}" for k in ks] + ["Rounds", "LFR"])
    lines = [f"# Study results: {n_tasks} tasks x {len(views)} views x {repeats} repeats", "",
             f"mean ± std over repeats; [95% bootstrap CI over tasks]; Pass@k: success = {rule}; "
             "failed runs are left out of the measures", "", "Mounts:", ""]
    lines += [f"- {view}: `anchorfs mount {' '.join(mounts[view])}`" for view in views]
    lines += ["", "| view | failed | " + " | ".join(names) + " |",
              "| --- " * (len(names) + 2) + "|"]
    for view in views:
        cells = []
        for name in names:
            m = table[view][name]
            ci = m["ci95"]
            cell = fmt(m["mean"])
            if m["std"] is not None:
                cell += f" ± {fmt(m['std'])}"
            if ci:
                cell += f" [{fmt(ci[0])}, {fmt(ci[1])}]"
            cells.append(cell)
        lines.append(f"| {view} | {table[view]['failed']} | " + " | ".join(cells) + " |")
    failed = [r for r in results if r["error"]]
    if failed:
        lines += ["", f"## Failed runs ({len(failed)})", "", "| task | view | repeat | error |",
                  "| --- | --- | --- | --- |"]
        lines += [f"| {r['task']} | {r['view']} | {r['repeat']} | ERROR: "
                  f"{r['error'].replace('|', '/')} |" for r in failed]
    if stab:
        lines += ["", "## Run-to-run stability (primary sessions)", "",
                  "| view | task | files visited | visited-set variance | Jaccard distance | "
                  "edit distance |", "| --- | --- | --- | --- | --- | --- |"]
        for view in views:
            for task, s in sorted(stab.get(view, {}).items()):
                lines.append(f"| {view} | {task} | {fmt(s['visited_mean'], 2)} ± "
                             f"{fmt(s['visited_std'], 2)} | {fmt(s['visited_variance'], 4)} | "
                             f"{fmt(s['jaccard_distance'], 4)} | {fmt(s['edit_distance'], 4)} |")
    if plots_note:
        lines += ["", f"Plots: {plots_note}"]
    return "\n".join(lines) + "\n"


def main(argv=None):
    args = parse_args(argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    work = Path(args.workdir).resolve() if args.workdir else out / "work"
    work.mkdir(parents=True, exist_ok=True)
    args.anchorfs = str(Path(args.anchorfs).resolve()) if os.sep in args.anchorfs else args.anchorfs
    views = [v for v in args.views.split(",") if v]
    ks = [int(k) for k in args.k.split(",")]
    with open(args.tasks) as f:
        tasks = [json.loads(line) for line in f if line.strip()]
    results = []
    for task in tasks:
        for view in views:
            for repeat in range(args.repeats):
                result = one_run(args, task, view, repeat, work)
                result["scores"] = score(result, ks)
                results.append(result)
                status = f"ERROR: {result['error']}" if result["error"] else \
                    json.dumps(result["scores"])
                print(f"{task['id']} {view} #{repeat}: {status}", file=sys.stderr)
    table = aggregate(results, views, ks, args.success, args.repeats)
    stab = stability(args, results, views)
    mounts = {view: mount_options(args, view) for view in views}
    plots_note = None
    if args.no_plots:
        plots_note = "not written (--no-plots)"
    else:
        try:
            import plots
        except ImportError as error:  # results are still written; only the pictures are missing
            plots_note = (f"NOT WRITTEN: {sys.executable} cannot import matplotlib ({error}); "
                          "install python3-matplotlib (scripts/install-deps.sh) and run the "
                          "harness with /usr/bin/python3, or pass --no-plots")
            print(f"warning: plots {plots_note}", file=sys.stderr)
        else:
            plots.write_plots(table, views, ks, out)
    failed = [r for r in results if r["error"]]
    summary = {"tasks": len(tasks), "views": views, "repeats": args.repeats, "k": ks,
               "success": args.success, "mounts": mounts, "failed": len(failed),
               "plots": plots_note or "written", "table": table, "stability": stab,
               "runs": results}
    (out / "results.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    (out / "results.md").write_text(markdown(table, stab, views, ks, len(tasks), args.repeats,
                                             args.success, results, mounts, plots_note))
    print((out / "results.md").read_text())
    if failed:
        print(f"{'warning' if args.allow_failures else 'error'}: {len(failed)} of "
              f"{len(results)} runs failed (see the failed runs in {out / 'results.md'})",
              file=sys.stderr)
        return 0 if args.allow_failures else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
