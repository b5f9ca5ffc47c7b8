#!/usr/bin/env python3
"""docs/architecture.md's "Adding a language" lists exactly what a front end implements.

  front_end_doc_test.py SOURCE_DIR

The bullets of its step 2 must name every virtual function of analysis::LanguageFrontEnd
(analysis/language.h) and nothing else, so a function added to the interface (or removed from
it) fails here until the guide says so.
"""
import re
import sys


def interface_functions(header):
    body = header[header.index("class LanguageFrontEnd {"):]
    body = body[:body.index("\n};")]
    return set(re.findall(r"\bvirtual\s+[^;{(]*?\b(\w+)\s*\(", body)) - {"LanguageFrontEnd"}


def documented_functions(doc):
    section = doc[doc.index("## Adding a language"):]
    section = section[:section.index("\n## ", 1)] if "\n## " in section[1:] else section
    step = section[section.index("2. **The front end**"):section.index("3. **Registration**")]
    bullets = [line for line in step.splitlines() if line.startswith("   - `")]
    names = set()
    for bullet in bullets:
        names.update(re.findall(r"`(\w+)\(", bullet.split(":", 1)[0]))
    return names


def main(argv):
    root = argv[1]
    with open(root + "/analysis/language.h", encoding="utf-8") as f:
        interface = interface_functions(f.read())
    with open(root + "/docs/architecture.md", encoding="utf-8") as f:
        documented = documented_functions(f.read())
    if len(interface) < 10:
        print("found only %s in analysis/language.h: parser out of date" % sorted(interface))
        return 1
    missing = sorted(interface - documented)
    extra = sorted(documented - interface)
    for name in missing:
        print("docs/architecture.md, Adding a language: LanguageFrontEnd::%s is not listed" % name)
    for name in extra:
        print("docs/architecture.md, Adding a language: lists %s, which LanguageFrontEnd lacks" % name)
    if missing or extra:
        return 1
    print("Adding a language lists all %d functions of LanguageFrontEnd" % len(interface))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
