#!/usr/bin/env python3
"""The man page and the bash, zsh and fish completions against `anchorfs --help`: every command
and option --help lists is in each, and the completions offer the right values in a real shell.
Usage: reference_test.py ANCHORFS_BIN"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ANCHORFS = sys.argv.pop(1)


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, check=True, **kwargs).stdout


def help_commands(path):
    """The subcommands `anchorfs PATH --help` lists (first name of each)."""
    text = run([ANCHORFS, *path, "--help"])
    if "Subcommands:" not in text:
        return []
    block = text.split("Subcommands:", 1)[1]
    return [m.group(1) for m in re.finditer(r"^  ([a-z][\w-]*)", block, re.M)]


def help_options(path):
    """The option names `anchorfs PATH --help` lists, --help itself included."""
    text = run([ANCHORFS, *path, "--help"])
    block = text.split("Options:", 1)[1].split("Subcommands:", 1)[0]
    names = set()
    for line in block.splitlines():
        m = re.match(r"^  (-[\w-]+(?:,--?[\w-]+)*)", line)
        if m:
            names.update(m.group(1).split(","))
    return names


def all_commands(path=()):
    for name in help_commands(list(path)):
        yield (*path, name)
        yield from all_commands((*path, name))


COMMANDS = list(all_commands())


def generated(fmt):
    return run([ANCHORFS, "reference", fmt])


class ManPage(unittest.TestCase):
    def setUp(self):
        self.man = generated("man")

    def test_every_command_and_option_of_help(self):
        sections = re.split(r"^\.SS ", self.man, flags=re.M)
        self.assertGreater(len(COMMANDS), 10)
        for path in COMMANDS:
            head = "\\fBanchorfs " + " ".join(path) + "\\fR"
            section = [s for s in sections if s.startswith(head + " ") or s.startswith(head + "\n")]
            self.assertEqual(len(section), 1, f"no man section for {' '.join(path)}")
            for option in help_options(list(path)) - {"-h", "--help"}:
                self.assertIn("\\fB" + option.replace("-", "\\-") + "\\fR", section[0],
                              f"{' '.join(path)} {option} missing from the man page")
        self.assertNotIn("git\\-filter", self.man)  # hidden from --help, so from the page too

    def test_renders_without_warnings(self):
        result = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z"], input=self.man,
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0)
        self.assertEqual(result.stderr, "")
        text = subprocess.run(["groff", "-man", "-Tutf8", "-P-c"], input=self.man,
                              capture_output=True, text=True, check=True).stdout
        self.assertIn("anchorfs mount [OPTIONS] REPO MOUNTPOINT", re.sub(r".\x08", "", text))


class Bash(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="anchorfs-completion-")
        cls.script = os.path.join(cls.dir, "anchorfs.bash")
        with open(cls.script, "w") as f:
            f.write(generated("bash"))
        os.mkdir(os.path.join(cls.dir, "cachedir"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def complete(self, *words):
        """COMPREPLY of the completion function for `anchorfs WORDS...` (the last being typed)."""
        script = ('source "$1"; shift; COMP_WORDS=(anchorfs "$@"); COMP_CWORD=$#; _anchorfs; '
                  'printf "%s\\n" "${COMPREPLY[@]}"')
        out = run(["bash", "--norc", "-c", script, "bash", self.script, *words], cwd=self.dir)
        return sorted(w for w in out.split("\n") if w)

    def test_commands(self):
        top = self.complete("")
        for name in ("mount", "unmount", "umount", "export", "doctor", "cache", "map"):
            self.assertIn(name, top)
        self.assertNotIn("git-filter", top)
        self.assertNotIn("reference", top)
        self.assertEqual(self.complete("cache", ""), ["clear", "stats", "trim"])
        self.assertEqual(self.complete("ca"), ["cache"])

    def test_values(self):
        self.assertEqual(self.complete("mount", "--view", ""), ["auto", "dense", "inv", "none", "topo"])
        self.assertEqual(self.complete("stats", "--style", "l"), ["lean"])
        self.assertEqual(self.complete("graph", "--format", ""), ["dot", "json", "pycg"])
        self.assertEqual(self.complete("map", "--to", "c"), ["checkout"])
        self.assertEqual(self.complete("mount", "--cache-dir", "cach"), ["cachedir"])
        self.assertEqual(self.complete("mount", "--threads", ""), [])

    def test_options_are_those_of_help(self):
        for path in COMMANDS:
            if help_commands(list(path)):
                continue
            self.assertEqual(set(self.complete(*path, "-")), help_options(list(path)), path)
        self.assertEqual(self.complete("mount", "--wr"), ["--writable"])
        self.assertEqual(self.complete("cache", "stats", "--rem"), ["--remote-cache"])


class Fish(unittest.TestCase):
    def complete(self, line):
        script = generated("fish")
        with tempfile.NamedTemporaryFile("w", suffix=".fish") as f:
            f.write(script)
            f.flush()
            out = run(["fish", "--no-config", "-c", f"source {f.name}; complete -C '{line}'"])
        return sorted(l.split("\t")[0] for l in out.splitlines())

    def test_commands_and_values(self):
        top = self.complete("anchorfs ")
        self.assertIn("doctor", top)
        self.assertIn("mount", top)
        self.assertNotIn("git-filter", top)
        self.assertEqual(self.complete("anchorfs cache "), ["clear", "stats", "trim"])
        self.assertEqual(self.complete("anchorfs mount --view "),
                         ["auto", "dense", "inv", "none", "topo"])
        self.assertEqual(self.complete("anchorfs render --style "), ["lean", "paper"])
        self.assertIn("--lazy", self.complete("anchorfs umount --"))
        self.assertIn("--remote-cache", self.complete("anchorfs cache stats --"))
        self.assertNotIn("--remote-cache", self.complete("anchorfs cache trim --"))


class Zsh(unittest.TestCase):
    """Completion in a real interactive zsh (tests/install/zsh_complete.zsh drives it in a pty)."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="anchorfs-zsh-")
        with open(os.path.join(cls.dir, "_anchorfs"), "w") as f:
            f.write(generated("zsh"))
        os.mkdir(os.path.join(cls.dir, "cachedir"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def complete(self, line):
        out = run(["zsh", "-f", os.path.join(os.path.dirname(__file__), "zsh_complete.zsh"),
                   self.dir, line], timeout=60, cwd=self.dir)
        return sorted(w for w in out.split("\n") if w)

    def test_commands_options_and_values(self):
        top = self.complete("anchorfs ")
        self.assertIn("doctor", top)
        self.assertIn("umount", top)
        self.assertNotIn("git-filter", top)
        self.assertEqual(self.complete("anchorfs cache "), ["clear", "stats", "trim"])
        self.assertEqual(self.complete("anchorfs mount --view "),
                         ["auto", "dense", "inv", "none", "topo"])
        self.assertEqual(self.complete("anchorfs render --style "), ["lean", "paper"])
        self.assertEqual(self.complete("anchorfs graph --format "), ["dot", "json", "pycg"])
        self.assertEqual(self.complete("anchorfs umount --"), ["--help", "--lazy"])
        self.assertEqual(self.complete(f"anchorfs mount --cache-dir {self.dir}/cach"), ["cachedir"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
