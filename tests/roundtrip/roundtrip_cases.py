#!/usr/bin/env python3
"""`anchorfs export` then `anchorfs import`: the writable mount's provenance cases
(tests/integration/writable_provenance_test.cpp) and the import's own rules (stale files,
conflicts, deletions, renames, modes, directories, symlinks, repeated imports), without FUSE.
Usage: roundtrip_cases.py ANCHORFS_BIN"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ANCHORFS = os.path.abspath(sys.argv.pop(1))

CORE = ('"""Core arithmetic."""\n\n\ndef helper(x):\n    a = x + 1\n    return a\n\n\n'
        'class Engine:\n    def run(self):\n        return helper(1)\n')
APP = ('from pkg.core import Engine, helper\n\n\ndef main():\n'
       '    return helper(2) + Engine().run()\n')
# Lines a user may write that look exactly like tags.
TAG_SHAPED = ('# === Function Annotation ===\n# function: example.py:f\n# CALLS: g\n'
              '# === Function Annotation ===\n')
README = '# sample\n\nAn example block:\n\n' + TAG_SHAPED + '\nx\n'
SCRIPT = '#!/bin/sh\n# @file libexample\necho x\n'
GIT = ['git', '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false']


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


class RoundTrip(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='anchorfs-roundtrip-')
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)
        self.repo = os.path.join(self.dir, 'repo')
        self.copy = os.path.join(self.dir, 'copy')
        write(self.repo_path('pkg/__init__.py'), '')
        write(self.repo_path('pkg/core.py'), CORE)
        write(self.repo_path('pkg/app.py'), APP)
        write(self.repo_path('README.md'), README)
        write(self.repo_path('build.sh'), SCRIPT)
        os.chmod(self.repo_path('build.sh'), 0o755)
        self.git('init', '-q', '-b', 'main')
        self.git('add', '-A')
        self.git('commit', '-qm', 'one')
        self.export()

    def repo_path(self, rel):
        return os.path.join(self.repo, rel)

    def copy_path(self, rel):
        return os.path.join(self.copy, rel)

    def git(self, *args):
        return subprocess.run(GIT + list(args), cwd=self.repo, capture_output=True, text=True,
                              check=True).stdout

    def anchorfs(self, *args, cwd=None):
        return subprocess.run([ANCHORFS, *args], capture_output=True, text=True, cwd=cwd or self.dir)

    def export(self):
        result = self.anchorfs('export', self.repo, self.copy, '--view', 'topo', '--no-cache')
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn('Annotation ===', read(self.copy_path('pkg/core.py')))

    def import_copy(self, *extra, expect=0):
        result = self.anchorfs('import', self.copy, self.repo, *extra)
        self.assertEqual(result.returncode, expect, result.stderr)
        return result

    def sh(self, command):
        subprocess.run(['sh', '-c', command], cwd=self.copy, check=True)

    def assert_no_served_tags(self):
        for rel in ('pkg/core.py', 'pkg/app.py'):
            if os.path.exists(self.repo_path(rel)):
                text = read(self.repo_path(rel))
                self.assertNotIn('Annotation ===', text, rel)
                self.assertNotIn('CALLED_BY', text, rel)

    # ---- the writable mount's provenance cases ----
    def test_tag_shaped_lines_of_an_untagged_file_survive_sed_in_place(self):
        self.sh("sed -i 's/^x$/y/' README.md && sed -i 's/echo x/echo y/' build.sh")
        self.import_copy()
        self.assertEqual(read(self.repo_path('README.md')), README.replace('\nx\n', '\ny\n'))
        self.assertEqual(read(self.repo_path('build.sh')), SCRIPT.replace('echo x', 'echo y'))

    def test_a_new_file_from_elsewhere_keeps_its_tag_shaped_string(self):
        test = "def test_doc():\n    text = '''\n" + TAG_SHAPED + "'''\n    assert text\n"
        write(self.copy_path('pkg/test_doc.py'), test)
        self.import_copy()
        self.assertEqual(read(self.repo_path('pkg/test_doc.py')), test)
        # Imported again after an edit: still every byte.
        self.sh("sed -i 's/assert text/assert text != \"\"/' pkg/test_doc.py")
        self.import_copy()
        self.assertEqual(read(self.repo_path('pkg/test_doc.py')),
                         test.replace('assert text', 'assert text != ""'))

    def test_tag_shaped_lines_written_into_a_tagged_file_are_kept(self):
        view = read(self.copy_path('pkg/core.py'))
        write(self.copy_path('pkg/core.py'), view + '\n' + TAG_SHAPED)
        self.import_copy()
        self.assertEqual(read(self.repo_path('pkg/core.py')), CORE + '\n' + TAG_SHAPED)

    def test_a_code_line_joined_with_a_tag_line_keeps_the_code_only(self):
        self.sh("sed -i '/^def helper(x):$/{N;s/\\n/ /}' pkg/core.py")
        self.import_copy()
        stored = read(self.repo_path('pkg/core.py'))
        self.assert_no_served_tags()
        self.assertIn('def helper(x):', stored)
        self.assertIn('class Engine:\n    def run(self):\n', stored)

    def test_truncating_inside_a_tag_block_leaves_no_tag_line(self):
        view = read(self.copy_path('pkg/core.py'))
        block = view.index('Annotation ===')
        line_start = view.rfind('\n', 0, block) + 1
        stripped = subprocess.run([ANCHORFS, 'strip'], input=view[:line_start], capture_output=True,
                                  text=True).stdout
        self.assertTrue(CORE.startswith(stripped))
        for cut in (line_start + 3, block + 20, view.index('\n', block) + 5):
            with self.subTest(cut=cut):
                shutil.rmtree(self.copy)
                os.unlink(self.copy + '.anchorfs-export')
                write(self.repo_path('pkg/core.py'), CORE)
                self.export()
                os.truncate(self.copy_path('pkg/core.py'), cut)
                self.import_copy()
                self.assertEqual(read(self.repo_path('pkg/core.py')), stripped)
                self.assert_no_served_tags()

    def test_an_edited_tag_line_is_still_a_tag(self):
        text = read(self.copy_path('pkg/core.py'))
        called = text.index('CALLED_BY')
        text = text[:called + 9] + '_EDITED' + text[called + 9:]
        write(self.copy_path('pkg/core.py'), text.replace('    a = x + 1\n', '    a = x + 10\n'))
        self.import_copy()
        self.assertEqual(read(self.repo_path('pkg/core.py')), CORE.replace('x + 1\n', 'x + 10\n'))

    def test_copying_a_tagged_file_inside_the_copy_stores_clean_bytes(self):
        self.sh('cp pkg/core.py pkg/copy.py && cp pkg/core.py pkg/app.py')
        self.import_copy()
        self.assertEqual(read(self.repo_path('pkg/copy.py')), CORE)
        self.assertEqual(read(self.repo_path('pkg/app.py')), CORE)

    # ---- what the import adds: concurrent checkout changes ----
    def test_a_file_changed_in_the_checkout_since_the_export_is_refused(self):
        write(self.repo_path('pkg/core.py'), 'outside = 1\n')
        text = read(self.copy_path('pkg/core.py')).replace('x + 1', 'x + 5')
        write(self.copy_path('pkg/core.py'), text)
        self.sh("sed -i 's/helper(2)/helper(3)/' pkg/app.py")
        result = self.import_copy(expect=1)
        self.assertIn('anchorfs: pkg/core.py: changed in the checkout since the export; not imported',
                      result.stderr)
        self.assertEqual(read(self.repo_path('pkg/core.py')), 'outside = 1\n')
        # The other file is imported, and the refused edit waits in the copy.
        self.assertEqual(read(self.repo_path('pkg/app.py')), APP.replace('helper(2)', 'helper(3)'))
        self.assertIn('x + 5', read(self.copy_path('pkg/core.py')))
        # Still refused next time: never overwritten.
        self.import_copy(expect=1)
        self.assertEqual(read(self.repo_path('pkg/core.py')), 'outside = 1\n')

    def test_an_unedited_file_changed_in_the_checkout_is_left_alone(self):
        write(self.repo_path('pkg/core.py'), 'outside = 1\n')
        self.import_copy()
        self.assertEqual(read(self.repo_path('pkg/core.py')), 'outside = 1\n')

    def test_touched_or_rewritten_with_the_same_bytes_is_not_a_change(self):
        os.utime(self.repo_path('pkg/core.py'), (1, 1))
        write(self.repo_path('pkg/app.py'), APP)
        self.sh("sed -i 's/x + 1/x + 2/' pkg/core.py && sed -i 's/helper(2)/helper(4)/' pkg/app.py")
        self.import_copy()
        self.assertEqual(read(self.repo_path('pkg/core.py')), CORE.replace('x + 1', 'x + 2'))
        self.assertEqual(read(self.repo_path('pkg/app.py')), APP.replace('helper(2)', 'helper(4)'))

    def test_a_path_created_in_both_is_refused(self):
        write(self.repo_path('pkg/new.py'), 'theirs = 1\n')
        write(self.copy_path('pkg/new.py'), 'mine = 1\n')
        result = self.import_copy(expect=1)
        self.assertIn('pkg/new.py: created in the checkout too', result.stderr)
        self.assertEqual(read(self.repo_path('pkg/new.py')), 'theirs = 1\n')

    def test_a_deletion_of_a_file_changed_in_the_checkout_is_refused(self):
        write(self.repo_path('pkg/app.py'), 'outside = 1\n')
        os.unlink(self.copy_path('pkg/app.py'))
        result = self.import_copy(expect=1)
        self.assertIn('pkg/app.py: changed in the checkout since the export; not deleted', result.stderr)
        self.assertEqual(read(self.repo_path('pkg/app.py')), 'outside = 1\n')

    # ---- what a user expects of a directory copy ----
    def test_deletions_renames_new_directories_modes_and_symlinks(self):
        self.sh('mkdir -p lib/sub && mv pkg/core.py lib/sub/core.py && rm pkg/app.py '
                '&& chmod 600 README.md && chmod 700 pkg && ln -s lib/sub/core.py core_link.py '
                "&& sed -i 's/x + 1/x + 9/' lib/sub/core.py")
        self.import_copy()
        self.assertFalse(os.path.exists(self.repo_path('pkg/core.py')))
        self.assertFalse(os.path.exists(self.repo_path('pkg/app.py')))
        self.assertEqual(read(self.repo_path('lib/sub/core.py')), CORE.replace('x + 1', 'x + 9'))
        self.assertEqual(os.stat(self.repo_path('README.md')).st_mode & 0o777, 0o600)
        self.assertEqual(os.stat(self.repo_path('pkg')).st_mode & 0o777, 0o700)
        self.assertEqual(os.readlink(self.repo_path('core_link.py')), 'lib/sub/core.py')
        self.assertEqual(read(self.repo_path('README.md')), README)
        # A whole directory removed.
        shutil.rmtree(self.copy_path('lib'))
        self.import_copy()
        self.assertFalse(os.path.exists(self.repo_path('lib')))

    def test_repeated_imports_take_only_the_later_edits(self):
        self.sh("sed -i 's/x + 1/x + 2/' pkg/core.py")
        self.import_copy()
        self.sh("sed -i 's/return a/return a * 2/' pkg/core.py")
        self.import_copy()
        self.assertEqual(read(self.repo_path('pkg/core.py')),
                         CORE.replace('x + 1', 'x + 2').replace('return a', 'return a * 2'))
        self.assertEqual(self.git('status', '--porcelain'), ' M pkg/core.py\n')

    def test_git_inside_the_copy_is_never_imported(self):
        self.sh('git -c user.name=t -c user.email=t@t commit -qam inside || true; echo x > .git/extra')
        self.import_copy()
        self.assertFalse(os.path.exists(self.repo_path('.git/extra')))
        self.assertEqual(self.git('log', '--format=%s'), 'one\n')

    def test_dry_run_writes_nothing(self):
        self.sh("sed -i 's/x + 1/x + 2/' pkg/core.py && rm pkg/app.py && echo y > new.txt")
        result = self.import_copy('--dry-run')
        self.assertEqual(result.stdout, 'D pkg/app.py\nA new.txt\nM pkg/core.py\n')
        self.assertEqual(self.git('status', '--porcelain'), '')

    def test_the_manifest_lives_beside_the_copy_and_names_the_repository(self):
        manifest = self.copy + '.anchorfs-export'
        self.assertTrue(os.path.exists(manifest))
        self.assertFalse(any(name.startswith('.anchorfs') for name in os.listdir(self.copy)))
        other = os.path.join(self.dir, 'other')
        os.makedirs(other)
        result = self.anchorfs('import', self.copy, other)
        self.assertEqual(result.returncode, 1)
        self.assertIn('was exported from ' + os.path.realpath(self.repo), result.stderr)
        moved = os.path.join(self.dir, 'manifest')
        os.rename(manifest, moved)
        self.sh("sed -i 's/x + 1/x + 2/' pkg/core.py")
        self.import_copy('--manifest', moved)
        self.assertEqual(read(self.repo_path('pkg/core.py')), CORE.replace('x + 1', 'x + 2'))


if __name__ == '__main__':
    unittest.main()
