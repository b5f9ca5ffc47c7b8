#!/usr/bin/env python3
"""Differential fuzzer for the FUSE-free round trip (`anchorfs export`, edit, `anchorfs import`).

The writable mount's differential cases (tests/integration/writable_fuzz.py), run without FUSE:
seeded random sequences of ordinary edits are applied to an exported copy of a git checkout and,
identically, to a plain copy of the checkout. After `anchorfs import` the checkout must equal the
plain copy: the bytes and modes of every file, the symlinks, the directories, `git status`. Each
seed runs two rounds (edit, import, edit the same copy again, import again). Among the files are
lines that look exactly like tags (a README example, a shell comment, a test's string): an import
that removed tags by their shape instead of by what the export wrote fails here.

  roundtrip_fuzz.py --anchorfs BIN [--seeds N] [--first-seed S] [--steps K]
"""
import argparse
import os
import random
import shutil
import stat
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../support'))
from edit_corpus import (  # noqa: E402  (the shared sample sits in tests/support)
    CORE, APP, UTIL, TAG_SHAPED, README, SCRIPT, NEW_TEST, GIT, OLD_TIME, sh, write, read, code_lines)


def tree(root):
    """Every entry below `root` but .git, sorted: (path, kind, bytes or target, mode, old mtime)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != '.git')
        for name in sorted(dirnames + filenames):
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            st = os.lstat(full)
            old = int(st.st_mtime) if st.st_mtime < OLD_TIME + 3600 * 24 * 365 else 'recent'
            if stat.S_ISLNK(st.st_mode):
                out.append((rel, 'link', os.readlink(full)))
            elif stat.S_ISDIR(st.st_mode):
                out.append((rel, 'dir', oct(st.st_mode & 0o7777)))
            else:
                out.append((rel, 'file', read(full), oct(st.st_mode & 0o7777), old))
    return out


class Fuzzer:
    def __init__(self, anchorfs, seed, steps, work):
        self.anchorfs = anchorfs
        self.random = random.Random(seed)
        self.steps = steps
        self.work = work
        self.log = []

    def setup(self):
        self.repo = os.path.join(self.work, 'repo')
        os.makedirs(os.path.join(self.repo, 'pkg'))
        write(os.path.join(self.repo, 'pkg/__init__.py'), '')
        write(os.path.join(self.repo, 'pkg/core.py'), CORE)
        write(os.path.join(self.repo, 'pkg/app.py'), APP)
        write(os.path.join(self.repo, 'pkg/util.py'), UTIL)
        write(os.path.join(self.repo, 'README.md'), README)
        write(os.path.join(self.repo, 'build.sh'), SCRIPT)
        os.chmod(os.path.join(self.repo, 'build.sh'), 0o755)
        os.symlink('pkg/core.py', os.path.join(self.repo, 'core_link.py'))
        sh(GIT + ['init', '-q', '-b', 'main'], self.repo)
        sh(GIT + ['add', '-A'], self.repo)
        sh(GIT + ['commit', '-qm', 'start'], self.repo)
        self.plain = os.path.join(self.work, 'plain')
        sh(['cp', '-a', self.repo, self.plain], self.work)
        self.copy = os.path.join(self.work, 'copy')
        self.outside = os.path.join(self.work, 'outside')
        os.makedirs(self.outside)
        sh([self.anchorfs, 'export', self.repo, self.copy, '--view', 'topo', '--no-cache'], self.work)
        if b'Annotation ===' not in read(os.path.join(self.copy, 'pkg/core.py')):
            raise RuntimeError('the export is not tagged')
        self.roots = [self.copy, self.plain]

    # ---- operations: each applies the same edit to the copy and to the plain checkout ----
    def pick_file(self, py_only=False):
        names = [rel for rel, kind, *_ in tree(self.plain) if kind == 'file']
        names = [f for f in names if not py_only or f.endswith('.py')]
        return self.random.choice(names) if names else None

    def pick_line(self, rel):
        lines = code_lines(read(os.path.join(self.plain, rel)).decode('utf-8', 'replace'))
        return self.random.choice(lines) if lines else None

    def op_sed(self):
        rel = self.pick_file()
        line = rel and self.pick_line(rel)
        if not line:
            return None
        word = self.random.choice([w for w in line.split() if w.isidentifier()] or ['x'])
        cmd = f"s/\\b{word}\\b/{word}_{self.random.randint(0, 99)}/"
        for root in self.roots:
            sh(['sed', '-i', cmd, rel], root)
        return f'sed -i {cmd!r} {rel}'

    def op_rewrite(self):
        rel = self.pick_file()
        line = rel and self.pick_line(rel)
        if not line:
            return None
        new = line + '  # edited' if self.random.random() < 0.5 else ''
        for root in self.roots:
            text = read(os.path.join(root, rel)).decode('utf-8', 'replace')
            write(os.path.join(root, rel), text.replace(line + '\n', new + ('\n' if new else ''), 1))
        return f'rewrite {rel}: {line!r} -> {new!r}'

    def op_pwrite(self):
        rel = self.pick_file()
        line = rel and self.pick_line(rel)
        if not line:
            return None
        new = ''.join(c if not c.isalnum() else self.random.choice('xyz') for c in line)
        for root in self.roots:
            with open(os.path.join(root, rel), 'r+b') as f:
                data = f.read()
                at = data.find((line + '\n').encode())
                if at < 0:
                    at = data.find(line.encode())
                f.seek(at)
                f.write(new.encode())
        return f'pwrite {rel}: {line!r} -> {new!r}'

    def op_append(self):
        rel = self.pick_file()
        if not rel:
            return None
        text = self.random.choice(['value = 1\n', TAG_SHAPED, '# @file appended\n', 'def late():\n    return 3\n'])
        for root in self.roots:
            with open(os.path.join(root, rel), 'a') as f:
                f.write(text)
        return f'append {text!r} to {rel}'

    def op_truncate_at_line(self):
        rel = self.pick_file()
        line = rel and self.pick_line(rel)
        if not line:
            return None
        for root in self.roots:
            at = read(os.path.join(root, rel)).find((line + '\n').encode())
            if at < 0:
                return None
            sh(['truncate', '-s', str(at), rel], root)
        return f'truncate {rel} before {line!r}'

    def op_editor_save(self):
        rel = self.pick_file()
        line = rel and self.pick_line(rel)
        if not line:
            return None
        for root in self.roots:
            path = os.path.join(root, rel)
            text = read(path).decode('utf-8', 'replace')
            write(path + '.swp~', text.replace(line, line + ' ', 1))
            os.chmod(path + '.swp~', os.stat(path).st_mode & 0o7777)
            os.rename(path + '.swp~', path)
        return f'editor save of {rel}'

    def op_copy_inside(self):
        src = self.pick_file()
        if not src:
            return None
        dst = self.random.choice(['pkg/copy.py', 'pkg/app.py', 'notes.txt', 'pkg/util.py'])
        if src == dst:
            return None
        for root in self.roots:
            os.makedirs(os.path.join(root, os.path.dirname(dst)), exist_ok=True)
            sh(['cp', src, dst], root)
        return f'cp {src} {dst}'

    def op_move_inside(self):
        src = self.pick_file()
        if not src:
            return None
        dst = self.random.choice(['pkg/moved.py', 'pkg/core.py.bak', 'renamed', 'pkg/app.py', 'lib/core.py'])
        if src == dst:
            return None
        for root in self.roots:
            os.makedirs(os.path.join(root, os.path.dirname(dst)), exist_ok=True)
            sh(['mv', src, dst], root)
        return f'mv {src} {dst}'

    def op_copy_in(self):
        dst = self.random.choice(['pkg/test_doc.py', 'docs.md', 'pkg/core.py', 'tests/test_doc.py'])
        source = os.path.join(self.outside, 'in.py')
        write(source, NEW_TEST)
        os.utime(source, (OLD_TIME, OLD_TIME))
        preserve = self.random.random() < 0.5
        for root in self.roots:
            os.makedirs(os.path.dirname(os.path.join(root, dst)), exist_ok=True)
            sh(['cp'] + (['-p'] if preserve else []) + [source, dst], root)
        return f'cp {"-p " if preserve else ""}outside/in.py {dst}'

    def op_remove(self):
        rel = self.pick_file()
        if not rel:
            return None
        for root in self.roots:
            os.unlink(os.path.join(root, rel))
        return f'rm {rel}'

    def op_remove_directory(self):
        dirs = [rel for rel, kind, *_ in tree(self.plain) if kind == 'dir']
        if not dirs:
            return None
        rel = self.random.choice(dirs)
        for root in self.roots:
            shutil.rmtree(os.path.join(root, rel))
        return f'rm -r {rel}'

    def op_chmod(self):
        rel = self.pick_file()
        if not rel:
            return None
        mode = self.random.choice([0o640, 0o755, 0o600])
        for root in self.roots:
            os.chmod(os.path.join(root, rel), mode)
        return f'chmod {mode:o} {rel}'

    def op_symlink(self):
        target = self.pick_file()
        if not target:
            return None
        name = self.random.choice(['link_a', 'pkg/link_b', 'core_link.py'])
        for root in self.roots:
            path = os.path.join(root, name)
            if os.path.lexists(path):
                if not os.path.islink(path):
                    return None
                os.unlink(path)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            os.symlink(os.path.relpath(os.path.join(root, target), os.path.dirname(path)), path)
        return f'ln -s {target} {name}'

    OPERATIONS = ['op_sed', 'op_rewrite', 'op_pwrite', 'op_append', 'op_truncate_at_line',
                  'op_editor_save', 'op_copy_inside', 'op_move_inside', 'op_copy_in', 'op_remove',
                  'op_remove_directory', 'op_chmod', 'op_symlink']

    def compare(self):
        ours, plain = tree(self.repo), tree(self.plain)
        lines = []
        if ours != plain:
            a, b = {e[0]: e[1:] for e in ours}, {e[0]: e[1:] for e in plain}
            for rel in sorted(set(a) | set(b)):
                if a.get(rel) != b.get(rel):
                    lines.append(f'  {rel}:\n    imported: {a.get(rel)!r}\n    plain:    {b.get(rel)!r}')
        status = [sh(GIT + ['status', '--porcelain'], root).stdout for root in (self.repo, self.plain)]
        if status[0] != status[1]:
            lines.append(f'  git status:\n    imported: {status[0]!r}\n    plain:    {status[1]!r}')
        return '\n'.join(lines)

    def run(self):
        self.setup()
        for round_ in range(2):
            for _ in range(self.steps):
                done = getattr(self, self.random.choice(self.OPERATIONS))()
                if done:
                    self.log.append(done)
            result = sh([self.anchorfs, 'import', self.copy, self.repo], self.work, check=False)
            if result.returncode != 0:
                return f'round {round_}: import failed ({result.returncode}):\n{result.stderr}' \
                       'operations:\n  ' + '\n  '.join(self.log)
            difference = self.compare()
            if difference:
                return f'round {round_}: the checkouts differ after the import:\n{difference}\n' \
                       'operations:\n  ' + '\n  '.join(self.log)
            self.log.append('-- import --')
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--anchorfs', required=True)
    parser.add_argument('--seeds', type=int, default=12)
    parser.add_argument('--first-seed', type=int, default=1)
    parser.add_argument('--steps', type=int, default=10)
    args = parser.parse_args()
    anchorfs = os.path.abspath(args.anchorfs)
    passed = failed = 0
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        work = tempfile.mkdtemp(prefix=f'anchorfs-roundtrip-{seed}-')
        start = time.monotonic()
        try:
            problem = Fuzzer(anchorfs, seed, args.steps, work).run()
        finally:
            shutil.rmtree(work, ignore_errors=True)
        if problem:
            failed += 1
            print(f'seed {seed}: DIFFERENT ({time.monotonic() - start:.1f} s)\n{problem}', flush=True)
        else:
            passed += 1
            print(f'seed {seed}: same ({time.monotonic() - start:.1f} s)', flush=True)
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
