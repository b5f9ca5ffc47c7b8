"""Reads anchorfs tag blocks (paper and lean, every block kind and field) back out of served text.

The contract is docs/tag-format.md; this module is its one reader for the study's scripts and
agents, so a format change is made (and tested, tests/study/tags_test.py) in one place. It never
raises on odd text: lines that are not a well-formed block are code, as `anchorfs strip` sees them.
"""
import re
from dataclasses import dataclass, field

# The field table of docs/tag-format.md, in its order (tags_test.py checks the two agree).
FIELDS = ("PARENT", "CHILDREN", "IMPORTS", "IMPORTED_BY", "CALLS", "CALLED_BY", "BASE", "DERIVED",
          "CONFIG_USAGE", "ENV_VAR", "CONST_REF", "IO_DEP", "DATA_DEP", "TEST_REF",
          "REGISTERED_BY", "REGISTERS")
FIELD_RANK = {name: i for i, name in enumerate(FIELDS)}
KINDS = ("file", "class", "function")

# One comment line: indent (spaces, tabs, form feeds), a marker (`#` or `//`), one space, body.
_COMMENT = re.compile(r"^(?P<indent>[ \t\f]*)(?P<marker>#|//) (?P<body>.*)$")
_DELIMITER = re.compile(r"^=== (File|Class|Function) Annotation ===$")
_NAME_LINE = re.compile(r"^(file|class|function): (.+)$")
_LEAN_HEADER = re.compile(r"^@(file|class|function) (.+)$")
_FIELD_LINE = re.compile(r"^([A-Z][A-Z_]*): (.*)$")
# The cap's last value: `… (+K more)` (`... (+K more)` in files with ASCII-only tags).
_MORE = re.compile(r"^(?:\u2026|\.\.\.) \(\+(\d+) more\)$")
_GROUP = re.compile(r"^(?P<path>[^()]*):\((?P<names>.*)\)$")
# Lean v5: a group of values in one other file, `PATH: name, name`.
_PATH_GROUP = re.compile(r"^(?P<path>[^,;()\s][^,;()]*?): (?P<names>.+)$")


@dataclass
class Block:
    style: str  # "paper" or "lean"
    kind: str  # "file", "class" or "function"
    name: str  # paper: the full id (a path for files); lean: the header's (short) name or path
    fields: dict = field(default_factory=dict)  # FIELD -> [value, ...] in order, groups expanded
    more: dict = field(default_factory=dict)  # FIELD -> K, values a cap left out
    first_line: int = 0  # 0-based index of the block's first line
    next_line: int = 0  # 0-based index of the line after the block (the code it tags)
    indent: str = ""


def _split_top(text, separator):
    """Parts of text between separators that are outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and text.startswith(separator, i) and i >= start:
            parts.append(text[start:i])
            start = i + len(separator)
    parts.append(text[start:])
    return parts


def split_values(text):
    """A field's values as `path:name`, `name` or `path`, and K of the cap's `… (+K more)`.

    Paper: `, `-separated. Lean v4: the same, with `p:(a, b)` standing for `p:a, p:b`. Lean v5:
    groups separated by `; `, a group in another file written `PATH: a, b` (for `PATH:a`,
    `PATH:b`), the cap a group of its own. Returns (values, K)."""
    parts = []
    for group in _split_top(text, "; "):
        group = group.strip()
        path_group = _PATH_GROUP.match(group)
        if path_group:
            path = path_group.group("path")
            parts.extend(part if _MORE.match(part.strip()) else f"{path}:{part.strip()}"
                         for part in _split_top(path_group.group("names"), ", "))
        else:
            parts.extend(_split_top(group, ", "))
    values, more = [], 0
    for part in parts:
        part = part.strip()
        if not part:
            continue
        capped = _MORE.match(part)
        if capped:
            more += int(capped.group(1))
            continue
        group = _GROUP.match(part)
        if group and group.group("path"):
            values.extend(f"{group.group('path')}:{name.strip()}"
                          for name in group.group("names").split(", ") if name.strip())
        else:
            values.append(part)
    return values, more


def _comment(line):
    match = _COMMENT.match(line)
    return (match.group("indent"), match.group("marker"), match.group("body")) if match else None


def _paper_block(lines, i):
    """The paper block opening at line i, or None (a lookalike: unclosed, code inside, ...)."""
    opening = _comment(lines[i])
    if not opening or not _DELIMITER.match(opening[2]):
        return None
    indent, marker, delimiter = opening
    block = Block("paper", delimiter.split()[1].lower(), "", first_line=i, indent=indent)
    j = i + 1
    while j < len(lines):
        line = _comment(lines[j])
        if line is None:
            return None  # code between the delimiters: not a block
        if line == opening:
            block.next_line = j + 1
            return block if block.name else None
        name = _NAME_LINE.match(line[2])
        value = _FIELD_LINE.match(line[2])
        if name and not block.name:
            block.name = name.group(2).strip()
        elif value:
            values, more = split_values(value.group(2))
            block.fields.setdefault(value.group(1), []).extend(values)
            if more:
                block.more[value.group(1)] = block.more.get(value.group(1), 0) + more
        j += 1
    return None


def _expand_back_references(values, written):
    """Lean v5 writes a path once per block: `*/PART` stands for the one path written in full
    earlier in the block that ends with `/PART` (docs/tag-format.md, "Reading one back")."""
    out = []
    for value in values:
        head, colon, tail = value.partition(":")
        if head.startswith("*/"):
            found = [w for w in written if w.endswith(head[1:])]
            if len(found) == 1:
                head = found[0]
                value = head + colon + tail
        elif head not in written:
            written.append(head)
        out.append(value)
    return out


def _lean_block(lines, i):
    """The lean block whose header is line i (at least one field line, fields in strictly
    increasing table order, same indent and marker), or None."""
    header = _comment(lines[i])
    if not header:
        return None
    match = _LEAN_HEADER.match(header[2])
    if not match:
        return None
    indent, marker = header[0], header[1]
    block = Block("lean", match.group(1), match.group(2).strip(), first_line=i, indent=indent)
    written = []  # path parts written in full so far in this block
    last_rank = -1
    j = i + 1
    while j < len(lines):
        line = _comment(lines[j])
        if line is None or line[:2] != (indent, marker):
            break
        value = _FIELD_LINE.match(line[2])
        if not value or FIELD_RANK.get(value.group(1), -1) <= last_rank:
            break
        last_rank = FIELD_RANK[value.group(1)]
        values, more = split_values(value.group(2))
        block.fields[value.group(1)] = _expand_back_references(values, written)
        if more:
            block.more[value.group(1)] = more
        j += 1
    if not block.fields:
        return None
    block.next_line = j
    return block


def blocks(text):
    """Every tag block of a served text, in order, either style."""
    lines = text.splitlines()
    found = []
    i = 0
    while i < len(lines):
        block = _paper_block(lines, i) or _lean_block(lines, i)
        if block:
            found.append(block)
            i = block.next_line
        else:
            i += 1
    return found


def split_reference(value):
    """(path part or None, name part or None) of a value as written: `p:name` -> both,
    a plain value -> (None, value); whether a plain value is a file is for resolve_plain."""
    path, colon, name = value.partition(":")
    if colon and path and name:
        return path, name
    return None, value


def resolve_path(part, files):
    """The repository path a written path stands for (docs/tag-format.md, "reading one back"):
    the path equal to it, else the only one ending with `/` + it; None when none or several."""
    if part in files:
        return part
    found = [f for f in files if f.endswith("/" + part)]
    return found[0] if len(found) == 1 else None


def resolve_name(part, names):
    """The qualified name a written name stands for among a file's definitions: the equal one,
    else the only one ending with `.` + it; None when none or several."""
    if part in names:
        return part
    found = [n for n in names if n.endswith("." + part)]
    return found[0] if len(found) == 1 else None


def resolve_plain(value, files, names=()):
    """("name", value) or ("file", path) for a value without a path part: a name of the block's
    own file (`names`, its qualified names) when it reads back as one, else a file when it reads
    back as a path (a file block's own module-level code: `CALLED_BY: a.py`), else a name."""
    if resolve_name(value, names) is None:
        path = resolve_path(value, files)
        if path:
            return "file", path
    return "name", value
