#!/usr/bin/env python3
"""Differential editing fuzzer for `anchorfs mount --writable` (issue 23).

Seeded random sequences of ordinary edits are applied to a git checkout through a writable mount
and, identically, to a plain copy of it. After every step the two checkouts must be the same: the
bytes, modes, user xattrs and link counts of every file, `git status`, and the tree of every
commit. Outside edits (made in the checkout itself, as another program would) come in between.
The checkout holds a git submodule (lib/) and a nested plain repository (vendor/nested/, ignored
by the top one): edits and git commands inside them are compared the same way, with each one's
status, commit trees and stashes.

  writable_fuzz.py --anchorfs BIN [--seeds N] [--first-seed S] [--steps K] [--legacy-wait]

It waits for the mount's live refresh by reading the attribute user.anchorfs.settled of the
mount point (docs/filesystem.md); --legacy-wait polls instead, for binaries that predate it.

Prints one line per seed and a closing 'N passed, N failed' line; exits 1 on any difference,
with the seed, the step and the operations that led there.
"""
import argparse
import difflib
import os
import random
import re
import shutil
import stat
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../support'))
from edit_corpus import (  # noqa: E402  (the shared sample sits in tests/support)
    CORE, APP, UTIL, TAG_SHAPED, README, SCRIPT, NEW_TEST, GIT, OLD_TIME, sh, write, read, code_lines)


# Commits get fixed dates, so both sides make the same commit ids: a submodule's commit id is in
# the top repository's trees and status, and a stash's subject names its base commit.
FIXED_DATES = {'GIT_AUTHOR_DATE': '2001-02-03T04:05:06Z', 'GIT_COMMITTER_DATE': '2001-02-03T04:05:06Z'}

# The repositories inside the checkout: a submodule and a nested plain repository.
INNER_REPOSITORIES = ['lib', 'vendor/nested']

INNER = '''"""Inner arithmetic."""


def base(x):
    return x - 1


def double(y):
    return base(y) * 2
'''


class Side:
    """One side of the comparison: `edit_root` is where edits go (the mount, or the plain copy),
    `checkout` where the results are compared (the mount's checkout, or the plain copy)."""

    def __init__(self, edit_root, checkout):
        self.edit_root = edit_root
        self.checkout = checkout

    def path(self, rel):
        return os.path.join(self.edit_root, rel)


class Fuzzer:
    def __init__(self, anchorfs, seed, steps, work, legacy=False):
        self.anchorfs = anchorfs
        self.legacy = legacy
        self.random = random.Random(seed)
        self.seed = seed
        self.steps = steps
        self.work = work
        self.log = []
        self.scope = ''  # pick files under this directory only (an inner repository's)

    # ---- setup ----
    def setup(self):
        repo = os.path.join(self.work, 'repo')
        os.makedirs(os.path.join(repo, 'pkg'))
        write(os.path.join(repo, 'pkg/__init__.py'), '')
        write(os.path.join(repo, 'pkg/core.py'), CORE)
        write(os.path.join(repo, 'pkg/app.py'), APP)
        write(os.path.join(repo, 'pkg/util.py'), UTIL)
        write(os.path.join(repo, 'README.md'), README)
        write(os.path.join(repo, 'build.sh'), SCRIPT)
        os.chmod(os.path.join(repo, 'build.sh'), 0o755)
        os.link(os.path.join(repo, 'pkg/util.py'), os.path.join(repo, 'pkg/util_alias.py'))
        os.setxattr(os.path.join(repo, 'pkg/app.py'), 'user.origin', b'fuzz')
        write(os.path.join(repo, '.gitignore'), 'vendor/\n')
        sh(GIT + ['init', '-q', '-b', 'main'], repo)
        sh(GIT + ['add', '-A'], repo)
        sh(GIT + ['commit', '-qm', 'start'], repo)
        origin = os.path.join(self.work, 'origin')
        nested = os.path.join(repo, 'vendor/nested')
        for inner in (origin, nested):
            os.makedirs(os.path.join(inner, 'inner'))
            write(os.path.join(inner, 'inner/__init__.py'), '')
            write(os.path.join(inner, 'inner/calc.py'), INNER)
            write(os.path.join(inner, 'inner/use.py'),
                  'from inner.calc import double\n\n\ndef use():\n    return double(3)\n')
            write(os.path.join(inner, 'NOTES.md'), README)
            sh(GIT + ['init', '-q', '-b', 'main'], inner)
            sh(GIT + ['add', '-A'], inner)
            sh(GIT + ['commit', '-qm', 'inner start'], inner)
        sh(GIT + ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', origin, 'lib'], repo)
        sh(GIT + ['commit', '-qm', 'submodule'], repo)
        plain = os.path.join(self.work, 'plain')
        sh(['cp', '-a', repo, plain], self.work)
        # The copy has new inode numbers and ctimes, so its index no longer matches its files'
        # stat data and git would rewrite a file the checkout's git leaves alone (a `git checkout
        # -- FILE` then breaks a hard link only in the copy). Refreshed, each copied index is as
        # current as the checkout's own.
        for inner in [''] + INNER_REPOSITORIES:
            sh(GIT + ['update-index', '-q', '--refresh'], os.path.join(plain, inner))
        self.outside = os.path.join(self.work, 'outside')
        os.makedirs(self.outside)
        self.mnt = os.path.join(self.work, 'mnt')
        os.makedirs(self.mnt)
        # A cache of its own: run by hand, the fuzzer must not write into the user's cache.
        self.cache = os.path.join(self.work, 'cache')
        sh([self.anchorfs, 'mount', repo, self.mnt, '--writable', '--view', 'topo',
            '--cache-dir', self.cache], self.work)
        self.mounted = True
        self.sides = [Side(self.mnt, repo), Side(plain, plain)]
        self.settle()

    def unmount(self):
        if self.mounted:
            sh([self.anchorfs, 'unmount', self.mnt], self.work, check=False)
            self.mounted = False

    def settle(self):
        """Waits until the mount's live refresh has handled every change made so far and published
        its re-tags: the daemon answers getxattr(MNT, user.anchorfs.settled) only then (git reads
        a file's size, then its bytes: a re-tag swapped in between looks like an edit,
        docs/filesystem.md). Binaries from before that attribute: --legacy-wait."""
        if self.legacy:
            return self.legacy_settle()
        os.getxattr(self.mnt, 'user.anchorfs.settled')

    def legacy_settle(self):
        """--legacy-wait, for binaries without the attribute (measuring old ones): polls, with a
        deadline, until the mount serves every file as `anchorfs export` of the checkout renders it."""
        repo = self.sides[0].checkout
        expected = os.path.join(self.work, 'expected')
        shutil.rmtree(expected, ignore_errors=True)
        os.makedirs(expected)
        sh([self.anchorfs, 'export', repo, expected, '--force', '--view', 'topo',
            '--cache-dir', self.cache], self.work)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if all(read(os.path.join(self.mnt, rel)) == read(os.path.join(expected, rel))
                       for rel in self.files(repo)):
                    return
            except OSError:
                pass
            time.sleep(0.05)  # legacy binaries announce nothing: poll what is expected
        raise RuntimeError('the mount did not settle on the checkout within 60 s')

    @staticmethod
    def files(root):
        out = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != '.git')
            for name in sorted(filenames):
                if name == '.git':  # a submodule's gitdir file: git's, not an edit's
                    continue
                out.append(os.path.relpath(os.path.join(dirpath, name), root))
        return sorted(out)

    # ---- comparing ----
    def state(self, side):
        root = side.checkout
        files = {}
        for rel in self.files(root):
            full = os.path.join(root, rel)
            st = os.lstat(full)
            attrs = {}
            if stat.S_ISREG(st.st_mode):
                for name in sorted(os.listxattr(full)):
                    if name.startswith('user.'):
                        attrs[name] = os.getxattr(full, name)
            old = st.st_mtime < OLD_TIME + 3600 * 24 * 365
            files[rel] = (read(full) if stat.S_ISREG(st.st_mode) else os.readlink(full),
                          oct(st.st_mode), st.st_nlink, attrs, int(st.st_mtime) if old else 'recent')
        status, trees, stashes = [], [], []
        for repository in [''] + INNER_REPOSITORIES:
            at = os.path.join(root, repository)
            if not os.path.exists(os.path.join(at, '.git')):
                continue  # moved or removed by an edit: the file listing shows it
            status.append(sh(GIT + ['status', '--porcelain'], at).stdout)
            trees.append(sh(GIT + ['log', '--format=%T %s'], at).stdout)
            stashes.append(sh(GIT + ['stash', 'list', '--format=%s'], at).stdout)
        return files, status, trees, stashes

    def compare(self):
        mount_state, plain_state = (self.state(side) for side in self.sides)
        if mount_state == plain_state:
            return None
        lines = []
        for label, a, b in zip(('files', 'git status', 'commit trees', 'stashes'), mount_state, plain_state):
            if a == b:
                continue
            if label == 'files':
                for rel in sorted(set(a) | set(b)):
                    if a.get(rel) != b.get(rel):
                        lines.append(f'  {rel}:\n    mount: {a.get(rel)!r}\n    plain: {b.get(rel)!r}')
            else:
                lines.append(f'  {label}:\n    mount: {a!r}\n    plain: {b!r}')
        return '\n'.join(lines)

    # ---- operations: each applies the same edit to both sides ----
    def pick_file(self, py_only=False):
        plain = self.sides[1].checkout
        # .gitmodules is git's: a sed of it makes every git command in the checkout fail.
        names = [f for f in self.files(plain) if (not py_only or f.endswith('.py'))
                 and f.startswith(self.scope) and f != '.gitmodules']
        names = [f for f in names if os.path.isfile(os.path.join(plain, f))
                 and not os.path.islink(os.path.join(plain, f))]
        return self.random.choice(names) if names else None

    def pick_line(self, rel):
        lines = code_lines(read(os.path.join(self.sides[1].checkout, rel)).decode('utf-8', 'replace'))
        return self.random.choice(lines) if lines else None

    def same_file(self, a, b):
        """Two names of one inode in the plain copy: mv and cp refuse them there, but through the
        mount they do not see one file (each name has its own inode number): skipped."""
        plain = self.sides[1].checkout
        try:
            return os.path.samefile(os.path.join(plain, a), os.path.join(plain, b))
        except OSError:
            return False

    def op_sed(self):
        rel = self.pick_file()
        line = rel and self.pick_line(rel)
        if not line:
            return None
        word = self.random.choice([w for w in line.split() if w.isidentifier()] or ['x'])
        cmd = f"s/\\b{word}\\b/{word}_{self.random.randint(0, 99)}/"
        for side in self.sides:
            sh(['sed', '-i', cmd, rel], side.edit_root)
        return f'sed -i {cmd!r} {rel}'

    def op_rewrite(self):
        """Read the file, change one line, write it back whole (open 'w')."""
        rel = self.pick_file()
        line = rel and self.pick_line(rel)
        if not line:
            return None
        new = line + '  # edited' if self.random.random() < 0.5 else ''
        for side in self.sides:
            text = read(side.path(rel)).decode('utf-8', 'replace')
            write(side.path(rel), text.replace(line + '\n', new + ('\n' if new else ''), 1))
        return f'rewrite {rel}: {line!r} -> {new!r}'

    def op_pwrite(self):
        """r+ in place: overwrite one line with text of the same length."""
        rel = self.pick_file()
        line = rel and self.pick_line(rel)
        if not line:
            return None
        new = ''.join(c if not c.isalnum() else self.random.choice('xyz') for c in line)
        for side in self.sides:
            with open(side.path(rel), 'r+b') as f:
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
        for side in self.sides:
            with open(side.path(rel), 'a') as f:
                f.write(text)
        return f'append {text!r} to {rel}'

    def op_two_appenders(self):
        rel = self.pick_file()
        if not rel:
            return None
        for side in self.sides:
            a = open(side.path(rel), 'a')
            b = open(side.path(rel), 'a')
            a.write('first = 1\n')
            b.write('second = 2\n')
            a.close()
            b.close()
        return f'two overlapping appenders on {rel}'

    def op_append_with_outside_append(self):
        rel = self.pick_file()
        if not rel:
            return None
        for side in self.sides:
            with open(side.path(rel), 'a') as f:
                f.write('mine = 1\n')
                f.flush()
                os.fsync(f.fileno())  # from here on the line is in the checkout
                with open(os.path.join(side.checkout, rel), 'a') as other:
                    other.write('theirs = 2\n')
                f.write('mine = 3\n')
        self.settle()
        return f'append held open while appending outside, {rel}'

    def op_truncate_at_line(self):
        rel = self.pick_file()
        line = rel and self.pick_line(rel)
        if not line:
            return None
        for side in self.sides:
            data = read(side.path(rel))
            at = data.find((line + '\n').encode())
            if at < 0:
                return None
            sh(['truncate', '-s', str(at), rel], side.edit_root)
        return f'truncate {rel} before {line!r}'

    def op_editor_save(self):
        """An editor's save: write a temporary beside the file, rename it over."""
        rel = self.pick_file()
        line = rel and self.pick_line(rel)
        if not line:
            return None
        for side in self.sides:
            text = read(side.path(rel)).decode('utf-8', 'replace')
            temp = side.path(rel) + '.swp~'
            write(temp, text.replace(line, line + ' ', 1))
            os.chmod(temp, os.stat(side.path(rel)).st_mode & 0o7777)
            os.rename(temp, side.path(rel))
        return f'editor save of {rel}'

    def op_write_view_from_before_a_retag(self):
        """An agent reads a file, code elsewhere changes its tags (a caller comes and goes), the
        re-tag is published, then the agent writes back what it read, edited (open 'w')."""
        rel = self.pick_file(py_only=True)
        other = self.pick_file(py_only=True)
        if not rel or not other or other == rel:
            return None
        names = re.findall(r'^def (\w+)\(', read(os.path.join(self.sides[1].checkout, rel)).decode(), re.M)
        line = self.pick_line(rel)
        if not names or not line:
            return None
        module = rel[:-len('.py')].replace('/', '.').removesuffix('.__init__')
        caller = f'\n\nfrom {module} import {names[0]}\n\n\ndef stale_caller():\n    return {names[0]}()\n'
        held = []
        originals = [read(os.path.join(side.checkout, other)) for side in self.sides]
        for side in self.sides:
            with open(os.path.join(side.checkout, other), 'ab') as f:
                f.write(caller.encode())
        self.settle()
        for side in self.sides:
            held.append(read(side.path(rel)).decode('utf-8', 'replace'))
        for side, original in zip(self.sides, originals):
            with open(os.path.join(side.checkout, other), 'wb') as f:
                f.write(original)
        self.settle()
        for side, text in zip(self.sides, held):
            write(side.path(rel), text.replace(line, line + '  # edited', 1))
        return f'rewrite {rel} from a view read before {other} called {names[0]} and stopped'

    def op_copy_inside(self):
        src = self.pick_file()
        if not src:
            return None
        dst = self.random.choice(['pkg/copy.py', 'pkg/app.py', 'notes.txt', 'pkg/util.py'])
        if src == dst or self.same_file(src, dst):
            return None
        for side in self.sides:
            sh(['cp', src, dst], side.edit_root)
        return f'cp {src} {dst}'

    def op_move_inside(self):
        src = self.pick_file()
        if not src:
            return None
        dst = self.random.choice(['pkg/moved.py', 'pkg/core.py.bak', 'renamed', 'pkg/app.py'])
        if src == dst or self.same_file(src, dst):
            return None
        for side in self.sides:
            sh(['mv', src, dst], side.edit_root)
        return f'mv {src} {dst}'

    def op_copy_in(self):
        dst = self.random.choice(['pkg/test_doc.py', 'docs.md', 'pkg/core.py'])
        source = os.path.join(self.outside, 'in.py')
        write(source, NEW_TEST)
        os.utime(source, (OLD_TIME, OLD_TIME))
        preserve = self.random.random() < 0.5
        for side in self.sides:
            os.makedirs(os.path.dirname(side.path(dst)) or side.edit_root, exist_ok=True)
            sh(['cp'] + (['-p'] if preserve else []) + [source, dst], side.edit_root)
        return f'cp {"-p " if preserve else ""}outside/in.py {dst}'

    def op_move_out(self):
        rel = self.pick_file()
        if not rel:
            return None
        # What leaves the mount is what it serves (the view, tags included): only the checkouts
        # are compared.
        # The plain side moves across filesystems too (copy, then unlink), as mv out of a mount does.
        for i, side in enumerate(self.sides):
            out = os.path.join(self.outside, f'out{i}')
            sh(['cp', '-a', rel, out], side.edit_root)
            sh(['rm', rel], side.edit_root)
        return f'mv {rel} outside'

    def op_outside_edit(self):
        rel = self.pick_file()
        line = rel and self.pick_line(rel)
        if not line:
            return None
        for side in self.sides:
            full = os.path.join(side.checkout, rel)
            text = read(full).decode('utf-8', 'replace')
            write(full, text.replace(line, line + '  # outside', 1))
        self.settle()
        return f'outside edit of {rel}'

    def op_metadata(self):
        rel = self.pick_file()
        if not rel:
            return None
        choice = self.random.choice(['chmod', 'xattr', 'touch'])
        for side in self.sides:
            if choice == 'chmod':
                os.chmod(side.path(rel), 0o640)
            elif choice == 'xattr':
                os.setxattr(side.path(rel), 'user.fuzz', b'v')
            else:
                os.utime(side.path(rel), (OLD_TIME, OLD_TIME))
        return f'{choice} {rel}'

    def op_hard_link(self):
        rel = self.pick_file()
        if not rel or rel == 'pkg/linked.py':
            return None
        for side in self.sides:
            if os.path.exists(side.path('pkg/linked.py')):
                os.unlink(side.path('pkg/linked.py'))
            os.link(side.path(rel), side.path('pkg/linked.py'))
        return f'ln {rel} pkg/linked.py'

    def op_git(self):
        return self.git_in('')

    def git_in(self, repository):
        """A git command in `repository` (the top one: ''), the same on both sides."""
        where = [side.path(repository) for side in self.sides]
        if not all(os.path.isdir(os.path.join(at, '.git')) or os.path.isfile(os.path.join(at, '.git'))
                   for at in where):
            return None
        prefix = repository + '/' if repository else ''
        choice = self.random.choice(['commit', 'checkout', 'stash', 'apply'])
        if choice == 'commit':
            for side, at in zip(self.sides, where):
                self.settle_git(side)
                sh(GIT + ['add', '-A'], at)
                sh(GIT + ['commit', '-qm', f'step', '--allow-empty'], at)
        elif choice == 'checkout':
            rel = self.pick_file()
            tracked = sh(GIT + ['ls-files'], where[1]).stdout.split()
            if not rel or not rel.startswith(prefix) or rel[len(prefix):] not in tracked:
                return None
            for side, at in zip(self.sides, where):
                self.settle_git(side)
                sh(GIT + ['checkout', '--', rel[len(prefix):]], at)
        elif choice == 'stash':
            results = []
            for side, at in zip(self.sides, where):
                self.settle_git(side)
                results.append(sh(GIT + ['stash'], at, check=False).returncode)
            if results[1] == 0:
                for side, at in zip(self.sides, where):
                    self.settle_git(side)
                    sh(GIT + ['stash', 'pop'], at, check=False)
        else:
            # A diff of the plain checkout's file, applied to a clean tree on both sides.
            plain = self.sides[1].checkout
            rel = self.pick_file(py_only=True)
            tracked = sh(GIT + ['ls-files'], where[1]).stdout.split()
            if not rel or not rel.startswith(prefix) or rel[len(prefix):] not in tracked:
                return None
            for side, at in zip(self.sides, where):
                self.settle_git(side)
                sh(GIT + ['checkout', '--', rel[len(prefix):]], at)
            # The checkout above is an edit of its own: it is logged and compared even when
            # there is no line to change (an empty file), or it could hide a difference.
            choice = f'checkout -- {rel} (no line to apply a diff to)'
            line = self.pick_line(rel)
            # Made beside the checkout (difflib), so the plain side gets no extra write.
            before = read(os.path.join(plain, rel)).decode()
            if line and before.endswith('\n'):
                after = before.replace(line, line + '  # applied', 1)
                inner = rel[len(prefix):]
                diff = ''.join(difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                                    'a/' + inner, 'b/' + inner))
                patch = os.path.join(self.outside, 'change.diff')
                write(patch, diff)
                for side, at in zip(self.sides, where):
                    self.settle_git(side)
                    sh(GIT + ['apply', patch], at)
                choice = f'apply (diff of {rel})'
        if self.mounted:
            self.settle()
        return f'git {choice}' + (f' in {repository}' if repository else '')

    def op_edit_in_inner_repository(self):
        """An edit of a file of the submodule or of the nested repository."""
        repository = self.random.choice(INNER_REPOSITORIES)
        edit = self.random.choice(['op_sed', 'op_rewrite', 'op_pwrite', 'op_append',
                                   'op_truncate_at_line', 'op_editor_save', 'op_outside_edit',
                                   'op_metadata'])
        self.scope = repository + '/'
        try:
            done = getattr(self, edit)()
        finally:
            self.scope = ''
        return done and f'{done} (in {repository})'

    def op_git_in_inner_repository(self):
        repository = self.random.choice(INNER_REPOSITORIES)
        self.scope = repository + '/'
        try:
            return self.git_in(repository)
        finally:
            self.scope = ''

    def settle_git(self, side):
        # Git inside the mount reads files as the mount serves them: wait until a re-tag of the
        # files just written has been swapped in (docs/filesystem.md, "Known limit").
        if side.edit_root == self.mnt:
            self.settle()

    OPERATIONS = ['op_sed', 'op_rewrite', 'op_write_view_from_before_a_retag', 'op_pwrite',
                  'op_append', 'op_two_appenders', 'op_append_with_outside_append', 'op_truncate_at_line', 'op_editor_save',
                  'op_copy_inside', 'op_move_inside', 'op_copy_in', 'op_move_out', 'op_outside_edit',
                  'op_metadata', 'op_hard_link', 'op_git', 'op_edit_in_inner_repository',
                  'op_git_in_inner_repository']

    def run(self):
        self.setup()
        try:
            for step in range(self.steps):
                name = self.random.choice(self.OPERATIONS)
                try:
                    done = getattr(self, name)()
                except (OSError, RuntimeError, AssertionError) as error:
                    self.log.append(f'{name}: {error}')
                    return f'step {step}: {name} failed:\n' + '\n'.join(self.log)
                if done is None:
                    continue
                self.log.append(done)
                difference = self.compare()
                if difference:
                    return f'step {step} ({done}) left the checkouts different:\n{difference}\n' \
                           'operations:\n  ' + '\n  '.join(self.log)
            return None
        finally:
            self.unmount()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--anchorfs', required=True)
    parser.add_argument('--seeds', type=int, default=4)
    parser.add_argument('--first-seed', type=int, default=1)
    parser.add_argument('--steps', type=int, default=12)
    parser.add_argument('--stop-at-first', action='store_true')
    parser.add_argument('--legacy-wait', action='store_true',
                        help='for binaries without user.anchorfs.settled: poll the mount until it '
                             'serves what `anchorfs export` renders')
    args = parser.parse_args()
    args.anchorfs = os.path.abspath(args.anchorfs)
    os.environ.update(FIXED_DATES)
    passed = failed = 0
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        work = tempfile.mkdtemp(prefix=f'anchorfs-fuzz-{seed}-')
        start = time.monotonic()
        try:
            problem = Fuzzer(args.anchorfs, seed, args.steps, work, args.legacy_wait).run()
        finally:
            shutil.rmtree(work, ignore_errors=True)
        took = time.monotonic() - start
        if problem:
            failed += 1
            print(f'seed {seed}: DIFFERENT ({took:.1f} s)\n{problem}', flush=True)
            if args.stop_at_first:
                break
        else:
            passed += 1
            print(f'seed {seed}: same ({took:.1f} s)', flush=True)
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
