#!/usr/bin/env python3
"""Tagged views that a language's formatter leaves alone (issue 27).

formatter_views_test.py ANCHORFS LANGUAGE [--prettier SCRIPT] SOURCE...

Copies SOURCE directories (real code: Debian corpora, tests/data fixtures) into a checkout,
formats it with the language's standard formatter, exports tagged views of it with
`anchorfs export` (the bytes a mount serves) and fails when the formatter finds a view's file
unclean although it finds the checkout's copy clean. For Go it also compares `go doc -all` of
every package in the checkout and in each view: a tag block must never become documentation.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Each view is exported once; paper blocks are the tallest, lean ones the densest.
VIEWS = [("topo", "paper"), ("dense", "lean")]

EXTENSIONS = {
    "go": (".go",),
    "rust": (".rs",),
    "python": (".py",),
    "javascript": (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts"),
}


def sources(root, language):
    found = []
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("testdata", "node_modules", "vendor"))
        for name in sorted(files):
            if name.endswith(EXTENSIONS[language]):
                found.append(os.path.relpath(os.path.join(directory, name), root))
    return found


def copy_sources(source_dirs, checkout, language):
    for source in source_dirs:
        source = source.rstrip("/")
        target = os.path.join(checkout, os.path.basename(source))
        for path in sources(source, language):
            os.makedirs(os.path.dirname(os.path.join(target, path)), exist_ok=True)
            shutil.copyfile(os.path.join(source, path), os.path.join(target, path))


class Formatter:
    """Formats a tree in place and lists the files it would change."""

    def __init__(self, language, prettier, env):
        self.language = language
        self.prettier = prettier
        self.env = env

    def run(self, args, cwd):
        return subprocess.run(args, cwd=cwd, env=self.env, capture_output=True, text=True,
                              errors="replace")

    def format(self, root):
        files = sources(root, self.language)
        if self.language == "go":
            self.run(["gofmt", "-w", *files], root)
        elif self.language == "rust":
            self.run(["rustfmt", "--edition", "2021", *files], root)
        elif self.language == "python":
            self.run(["black", "-q", *files], root)
        else:
            self.run(["node", self.prettier, "--write", "--log-level", "silent", *files], root)

    def unclean(self, root):
        """The files the formatter would change, and its report on them."""
        files = sources(root, self.language)
        if self.language == "go":
            out = self.run(["gofmt", "-l", *files], root)
            return set(out.stdout.split()), out.stderr
        if self.language == "rust":
            out = self.run(["rustfmt", "--check", "--color", "never", "--edition", "2021", *files],
                           root)
            # "Diff in PATH at line N:" (rustfmt 1.5), "Diff in PATH:N:" (later releases).
            named = re.findall(r"^Diff in (.+?)(?::\d+| at line \d+):$", out.stdout, re.M)
            unclean = {os.path.relpath(os.path.join(root, p), root) for p in named}
            # rustfmt cannot format a file it fails to parse: that file is unclean, not clean.
            unclean |= {p for p in files if f"{p}:" in out.stderr}
            return unclean, out.stdout[-4000:] + out.stderr[-2000:]
        if self.language == "python":
            out = self.run(["black", "--check", *files], root)
            named = re.findall(r"^(?:would reformat|error: cannot format) (.*?)(?::.*)?$",
                               out.stderr, re.M)
            return {os.path.relpath(os.path.join(root, p), root) for p in named}, out.stderr
        out = self.run(["node", self.prettier, "--list-different", *files], root)
        unclean = set(out.stdout.split())
        unclean |= set(re.findall(r"^\[error\] (\S+?): ", out.stderr, re.M))
        return unclean, out.stderr[-4000:]

    def diff(self, root, path):
        if self.language == "go":
            return self.run(["gofmt", "-d", path], root).stdout
        if self.language == "rust":
            return self.run(["rustfmt", "--check", "--color", "never", "--edition", "2021", path],
                            root).stdout
        if self.language == "python":
            return self.run(["black", "--diff", "-q", path], root).stdout
        with open(os.path.join(root, path)) as f:
            formatted = self.run(["node", self.prettier, "--stdin-filepath", path], root)
            return "prettier rewrites it:\n" + formatted.stdout[:3000] + "\n--- was ---\n" + \
                f.read()[:3000]


def go_doc(root, env):
    """`go doc -all -u` of every package directory under root."""
    docs = {}
    for directory, dirs, files in os.walk(root):
        dirs.sort()
        if any(f.endswith(".go") and not f.endswith("_test.go") for f in files):
            out = subprocess.run(["go", "doc", "-all", "-u", "."], cwd=directory, env=env,
                                 capture_output=True, text=True, errors="replace")
            docs[os.path.relpath(directory, root)] = out.stdout + out.stderr
    return docs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("anchorfs")
    parser.add_argument("language", choices=sorted(EXTENSIONS))
    parser.add_argument("--prettier")
    parser.add_argument("source", nargs="+")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="anchorfs-formatters-") as work:
        # The formatters scripts/install-deps.sh installs come first (not a rustup toolchain's).
        env = dict(os.environ, PATH="/usr/bin:/bin:" + os.environ.get("PATH", ""), HOME=work, XDG_CACHE_HOME=os.path.join(work, "cache"),
                   GO111MODULE="off", GOPATH=os.path.join(work, "gopath"),
                   GOCACHE=os.path.join(work, "gocache"), GOFLAGS="")
        checkout = os.path.join(work, "checkout")
        os.makedirs(checkout)
        copy_sources(args.source, checkout, args.language)
        formatter = Formatter(args.language, args.prettier, env)
        formatter.format(checkout)
        unclean_checkout, _ = formatter.unclean(checkout)
        clean = [p for p in sources(checkout, args.language) if p not in unclean_checkout]
        print(f"{args.language}: {len(clean)} files the formatter finds clean in the checkout "
              f"(of {len(sources(checkout, args.language))})")
        if len(clean) < 10:
            print("too few clean files to test anything", file=sys.stderr)
            return 1
        checkout_docs = go_doc(checkout, env) if args.language == "go" else {}

        failures = 0
        for view, style in VIEWS:
            exported = os.path.join(work, f"{view}-{style}")
            out = subprocess.run([args.anchorfs, "export", checkout, exported, "--view", view,
                                  "--style", style, "--cache-dir", os.path.join(work, "cache")],
                                 env=env, capture_output=True, text=True)
            if out.returncode != 0:
                print(f"anchorfs export failed: {out.stderr}", file=sys.stderr)
                return 1
            tagged = 0
            for path in clean:
                with open(os.path.join(checkout, path), "rb") as a, \
                        open(os.path.join(exported, path), "rb") as b:
                    tagged += a.read() != b.read()
            unclean_view, report = formatter.unclean(exported)
            broken = sorted(p for p in clean if p in unclean_view)
            print(f"{view}/{style}: {tagged} of the clean files tagged, "
                  f"{len(broken)} unclean after tagging")
            if tagged < len(clean) // 4:
                print(f"{view}/{style}: too few files tagged to test anything", file=sys.stderr)
                failures += 1
            for path in broken[:5]:
                print(f"--- {view}/{style}: {path}\n{formatter.diff(exported, path)[:3000]}")
            if broken and not any(p in report for p in broken[:1]):
                print(report)
            failures += len(broken)
            if args.language == "go":
                for package, text in go_doc(exported, env).items():
                    if text != checkout_docs.get(package):
                        print(f"--- {view}/{style}: go doc -all of {package} differs:")
                        ours = checkout_docs.get(package, "").splitlines()
                        for line in text.splitlines():
                            if line not in ours:
                                print(f"  + {line}")
                        failures += 1
        print(f"{failures} failures")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
