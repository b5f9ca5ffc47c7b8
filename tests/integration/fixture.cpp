// The fixture repository of the integration tests (sample project + awkward files).
#include "fixture.h"

#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>

#include "support.h"

namespace anchorfs::itest {
namespace {

std::string crlf(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

const char* const kCrlf = R"("""Windows line endings."""
from bookshelf.util.text import slugify


class Shouter:
    def shout(self, text):
        return slugify(text).upper()


def loud(text):
    return Shouter().shout(text)
)";

const char* const kBom = R"("""A file with a byte order mark."""
from bookshelf.models import Book


def make_book(title):
    return Book(title, 2020, "anon")
)";

const char* const kNoNewline = R"(def last():
    return helper()


def helper():
    return 1)";

const char* const kTabs =
    "class Base:\n"
    "\tdef run(self):\n"
    "\t\treturn self.step()\n"
    "\n"
    "\tdef step(self):\n"
    "\t\treturn 0\n"
    "\n"
    "\n"
    "class Child(Base):\n"
    "\tdef step(self):\n"
    "\t\treturn 1\n";

const char* const kDecorated = R"("""Stacked decorators, decorator factories, a decorated class."""
import functools

REGISTRY = []


def register(func):
    REGISTRY.append(func)
    return func


def traced(label):
    def decorate(func):
        @functools.wraps(func)
        def inner(*args, **kwargs):
            return func(*args, **kwargs)

        return inner

    return decorate


@register
@traced("handler")
def handler(value):
    return transform(value)


def transform(value):
    return value * 2


@register
class Plugin:
    @staticmethod
    def create():
        return Plugin()
)";

const char* const kScript = R"(#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""A script with a shebang and an encoding declaration."""
from bookshelf.cli import main

if __name__ == "__main__":
    main()
)";

const char* const kBroken = R"(def broken(:
    return 1
)";

}  // namespace

void build_fixture_repo(const std::string& dir) {
  copy_tree(kSampleProject, dir);
  make_dirs(dir + "/tricky");
  write_file(dir + "/tricky/__init__.py", "\"\"\"Edge cases for anchorfs.\"\"\"\n");
  write_file(dir + "/tricky/crlf.py", crlf(kCrlf));
  write_file(dir + "/tricky/bom.py", std::string("\xEF\xBB\xBF") + kBom);
  write_file(dir + "/tricky/no_newline.py", kNoNewline);
  write_file(dir + "/tricky/tabs.py", kTabs);
  write_file(dir + "/tricky/decorated.py", kDecorated);
  write_file(dir + "/tricky/script.py", kScript);
  write_file(dir + "/tricky/empty.py", "");
  write_file(dir + "/tricky/broken.py", kBroken);
  write_file(dir + "/notes.txt", "plain text, served as is\n");
  write_file(dir + "/data.json", "{\"items\": []}\n");
  make_dirs(dir + "/.config");
  write_file(dir + "/.config/settings.ini", "[shelf]\nloan_days = 14\n");
  make_dirs(dir + "/.hidden");
  write_file(dir + "/.hidden/secret.py", "def secret():\n    return 42\n");
  if (chmod((dir + "/tricky/script.py").c_str(), 0755) != 0 ||
      symlink("bookshelf/models.py", (dir + "/models_link.py").c_str()) != 0 ||
      symlink("bookshelf/util", (dir + "/util_link").c_str()) != 0) {
    throw std::runtime_error("cannot build the fixture repository in " + dir);
  }
}

}  // namespace anchorfs::itest
