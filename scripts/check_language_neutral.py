#!/usr/bin/env python3
"""Checks that the language-neutral modules name no language in their code.

  check_language_neutral.py ROOT [DIR...]

Every string and character literal of the C++ files under ROOT/DIR (default: fs cache refresh
cli render, and the files directly in analysis/ but front_ends.cpp, the one place that lists the
front ends: the core docs/architecture.md says reaches a language only through
analysis/language.h) is searched for a language's name (the front-end directories
analysis/<language>/ plus common aliases), a source file extension, a file a front end's
resolution reads (setup.cfg, go.mod, ...), a package-entry convention (__init__) and, in
render/, a comment marker ("#", "//"). Comments may mention languages as examples; code may not
act on one. Prints every finding as PATH:LINE: LITERAL and exits 1 when there is any.
"""
import os
import re
import sys

DEFAULT_DIRS = ["fs", "cache", "refresh", "cli", "render", "analysis"]
# In analysis/ only the files directly in it are core (its subdirectories are the front ends and
# their kit); front_ends.cpp registers every front end by name.
TOP_LEVEL_ONLY = {"analysis": {"front_ends.cpp"}}
NOT_LANGUAGES = {"code", "export", "tools"}  # analysis/ subdirectories shared by every language
ALIASES = ["golang", "typescript", "tsx", "jsx", "ecmascript"]
AMBIGUOUS = {"go"}
EXTENSIONS = ["py", "pyi", "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "go", "rs",
              "java", "c", "cc", "cpp", "cxx", "hpp", "hh", "hxx"]
RESOLUTION_FILES = ["setup.cfg", "setup.py", "pyproject.toml", "go.mod", "go.work", "Cargo.toml",
                    "tsconfig.json", "package.json", "pom.xml", "build.gradle", "compile_commands.json"]
CONVENTIONS = ["__init__", "__main__", "mod.rs", "index.js"]
# ";" is no comment marker of any front end and is lean's group separator (docs/tag-format.md).
COMMENT_MARKERS = re.compile(r"^\s*(#|//|/\*|--)\s*$")


def languages(root):
    analysis = os.path.join(root, "analysis")
    return sorted(name for name in os.listdir(analysis)
                  if os.path.isdir(os.path.join(analysis, name)) and name not in NOT_LANGUAGES)


def forbidden_pattern(root):
    words = languages(root) + ALIASES
    # "go" is also an English word: only the whole literal or a name joined to a path or
    # identifier ("go.mod", "go-facts", "lang/go") counts.
    terms = [r"^%s$|[/._:-]%s\b|\b%s[/._:-]" % ((re.escape(word),) * 3) if word in AMBIGUOUS
             else r"\b%s\b" % re.escape(word) for word in words]
    terms += [r"\.%s\b" % re.escape(ext) for ext in EXTENSIONS]
    terms += [re.escape(name) for name in RESOLUTION_FILES + CONVENTIONS]
    return re.compile("|".join(terms), re.IGNORECASE)


def literals(text):
    """(line, literal body) of every string and character literal, comments skipped."""
    token = re.compile(r'//[^\n]*|/\*.*?\*/|R"([^(\s]*)\((.*?)\)\1"|"(?:\\.|[^"\\\n])*"|'
                       r"(?<![0-9A-Za-z_])'(?:\\.|[^'\\\n])*'", re.DOTALL)  # 1'000 is no literal
    for match in token.finditer(text):
        literal = match.group(0)
        if literal.startswith("//") or literal.startswith("/*"):
            continue
        body = match.group(2) if match.group(2) is not None else literal[1:-1]
        yield text.count("\n", 0, match.start()) + 1, body


def findings(root, directory, pattern):
    base = os.path.join(root, directory)  # an absolute DIR is taken as it is
    for dirpath, _, names in sorted(os.walk(base)):
        if directory in TOP_LEVEL_ONLY and dirpath != base:
            continue
        for name in sorted(names):
            if not name.endswith((".h", ".cpp")) or name in TOP_LEVEL_ONLY.get(directory, ()):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8") as source:
                text = source.read()
            for line, body in literals(text):
                hit = pattern.search(body)
                if not hit and os.path.basename(base) == "render" and COMMENT_MARKERS.match(body):
                    hit = True
                if hit:
                    yield "%s:%d: %r" % (os.path.relpath(path, root), line, body)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = argv[1]
    pattern = forbidden_pattern(root)
    found = [f for directory in (argv[2:] or DEFAULT_DIRS) for f in findings(root, directory,
                                                                             pattern)]
    for finding in found:
        print(finding)
    if found:
        print("check_language_neutral: %d literal(s) name a language; ask the front end through "
              "analysis/language.h instead" % len(found), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
