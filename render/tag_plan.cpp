// Applying a tag plan to original bytes, and stripping tag blocks back out of a tagged view.
#include "render/tag_plan.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "render/delimiter.h"
#include "render/tag_words.h"
#include "render/text_line.h"

namespace anchorfs::render {

uint64_t TagPlan::added_bytes() const {
  uint64_t total = 0;
  for (const Insertion& insertion : insertions) total += insertion.text.size();
  return total;
}

std::string apply(std::string_view original, const TagPlan& plan) {
  std::string out;
  out.reserve(original.size() + plan.added_bytes());
  uint64_t copied = 0;
  for (const Insertion& insertion : plan.insertions) {
    if (insertion.offset < copied || insertion.offset > original.size()) {
      throw std::invalid_argument(
          "tag plan insertions must be sorted and within the file (offset " +
          std::to_string(insertion.offset) + ", file size " + std::to_string(original.size()) +
          ")");
    }
    out.append(original.substr(copied, insertion.offset - copied));
    out.append(insertion.text);
    copied = insertion.offset;
  }
  out.append(original.substr(copied));
  return out;
}

namespace {

// Front ends place a file block after at most this many protected lines (shebang, encoding).
constexpr int kLinesBeforeFileBlock = 2;

TextLine line_at(std::string_view text, size_t begin) {
  size_t pos = begin;
  while (pos < text.size() && text[pos] != '\n' && text[pos] != '\r') ++pos;
  TextLine line{begin, pos, pos};
  if (pos < text.size()) {
    line.end = pos + 1;
    if (text[pos] == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n') line.end = pos + 2;
  }
  return line;
}

bool is_comment_line(std::string_view content) {
  return after_comment_marker(content).has_value();
}

bool opened_with_cr(std::string_view text, const TextLine& open) {
  return open.end - open.content_end == 1 && text[open.content_end] == '\r';
}

// The end of the lean block whose header is `open`: the field lines that follow with the header's
// indent, in strictly increasing contract order.
size_t lean_block_end(std::string_view text, const TextLine& open) {
  const std::string_view header = text.substr(open.begin, open.content_end - open.begin);
  const std::string_view indent = header.substr(0, header.find_first_not_of(" \t\f"));
  size_t next = open.end;
  size_t last_content_end = open.content_end;
  std::optional<size_t> previous;
  while (next < text.size()) {
    TextLine line = line_at(text, next);
    std::string_view content = text.substr(line.begin, line.content_end - line.begin);
    std::optional<size_t> field = field_line_index(content);
    if (!field || (previous && *field <= *previous) || !content.starts_with(indent) ||
        content.find_first_not_of(" \t\f") != indent.size()) {
      break;
    }
    previous = field;
    last_content_end = line.content_end;
    next = line.end;
  }
  // A block's lines share one terminator: a "\r" block followed by an original "\n" line must
  // leave that "\n" in place.
  return opened_with_cr(text, open) ? std::min(next, last_content_end + 1) : next;
}

// A block's separator (TagSyntax::separate_blocks): the empty line right after a definition
// block, or after a block that starts the text, is the block's. No front end places such a block
// above an empty line of its own: definitions are anchored at non-empty lines, and a file block
// at the start of a text goes below its leading empty lines except where its front end separates
// blocks.
size_t with_separator(std::string_view text, const TextLine& open, size_t end, BlockKind kind,
                      size_t text_start) {
  if (kind == BlockKind::File && open.begin != text_start) return end;
  const std::string_view terminator = text.substr(open.content_end, open.end - open.content_end);
  if (terminator.empty() || text.compare(end, terminator.size(), terminator) != 0) return end;
  return end + terminator.size();
}

}  // namespace

std::vector<ByteRange> tag_block_ranges(std::string_view tagged) {
  std::vector<ByteRange> blocks;
  // A UTF-8 byte order mark stays in front; the first line is judged without it.
  const size_t start = tagged.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
  size_t pos = start;
  while (pos < tagged.size()) {
    TextLine open = line_at(tagged, pos);
    std::string_view open_content = tagged.substr(open.begin, open.content_end - open.begin);
    if (std::optional<BlockKind> lean = is_lean_header(open_content)) {
      pos = with_separator(tagged, open, lean_block_end(tagged, open), *lean, start);
      blocks.push_back({open.begin, pos});
      continue;
    }
    std::optional<BlockKind> kind = delimiter_kind(open_content);
    if (!kind) {
      pos = open.end;
      continue;
    }
    // Look for the closing delimiter over comment lines only. The search stops at the next
    // delimiter line of any kind, so every line is examined at most twice: linear time.
    size_t next = open.end;
    bool closed = false;
    while (next < tagged.size()) {
      TextLine line = line_at(tagged, next);
      std::string_view content = tagged.substr(line.begin, line.content_end - line.begin);
      if (std::optional<BlockKind> other = delimiter_kind(content)) {
        if (*other == *kind) {
          closed = true;
          // A block's lines share one terminator, so the closing line takes the opening line's:
          // a "\r" block followed by an original "\n" line must leave that "\n" in place.
          next = opened_with_cr(tagged, open) ? std::min(line.end, line.content_end + 1) : line.end;
        }
        break;
      }
      if (!is_comment_line(content)) break;
      next = line.end;
    }
    if (closed) {
      next = with_separator(tagged, open, next, *kind, start);
      blocks.push_back({open.begin, next});
      pos = next;
    } else {
      pos = open.end;
    }
  }
  return blocks;
}

std::string strip(std::string_view tagged) {
  std::string out;
  out.reserve(tagged.size());
  size_t kept_from = 0;
  for (const ByteRange& block : tag_block_ranges(tagged)) {
    out.append(tagged.substr(kept_from, block.begin - kept_from));
    kept_from = block.end;
  }
  out.append(tagged.substr(kept_from));
  return out;
}

bool has_tag_delimiter(std::string_view text) {
  size_t start = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
  // A file block goes within the first lines; a field-like comment right after it would be taken
  // into a lean block.
  // A file block starting the text goes below its leading empty lines (except a separated one).
  size_t pos = start;
  while (pos < text.size() && (text[pos] == '\n' || text[pos] == '\r')) ++pos;
  for (int i = 0; i < kLinesBeforeFileBlock + 1 && pos < text.size(); ++i) {
    TextLine line = line_at(text, pos);
    if (field_line_index(text.substr(line.begin, line.content_end - line.begin))) return true;
    pos = line.end;
  }
  // Every delimiter title and lean header holds one of these words; one pass over the text
  // rules out nearly every file before the line-by-line check (this runs over every source on
  // every mount whose survey reads it; four memmem passes were 1 % of a cold kernel sample's
  // instructions).
  // Then only the lines holding such a word: generated code can hold thousands of JSDoc
  // `/** @class */` lines among a million others (TypeScript's bundles: checking every line was
  // 2.8 % of a cold mount's instructions).
  for (size_t q = next_tag_word(text, start); q != std::string_view::npos;) {
    const size_t terminator = text.find_last_of("\r\n", q);
    const size_t begin = terminator == std::string_view::npos ? start : terminator + 1;
    const TextLine line = line_at(text, std::max(begin, start));
    std::string_view content = text.substr(line.begin, line.content_end - line.begin);
    if (delimiter_kind(content) || is_lean_header(content)) return true;
    q = line.end < text.size() ? next_tag_word(text, line.end) : std::string_view::npos;
  }
  return false;
}

}  // namespace anchorfs::render
