// The store rule: what a writer wrote, less exactly the bytes the view served as tags.
#include "render/untag.h"

#include <algorithm>
#include <span>
#include <unordered_map>

#include "render/line_diff.h"
#include "render/text_line.h"

namespace anchorfs::render {
namespace {

// Beyond this many inserted + deleted lines the written file is aligned by whole blocks only.
constexpr size_t kMaxEdits = 2048;
// Joined and edited tag lines are looked for in changed runs of at most this many lines.
constexpr size_t kMaxRunLines = 256;

// Terminators are "\n" and "\r\n" (a lone "\r" stays in the line's content).
std::vector<TextLine> split_lines(std::string_view text) {
  std::vector<TextLine> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    const size_t newline = text.find('\n', begin);
    TextLine line{begin, text.size(), text.size()};
    if (newline != std::string_view::npos) {
      line.end = newline + 1;
      line.content_end = newline > begin && text[newline - 1] == '\r' ? newline - 1 : newline;
    }
    lines.push_back(line);
    begin = line.end;
  }
  return lines;
}

struct Span {
  size_t begin = 0;
  size_t end = 0;
};

// The served view's tag bytes, sorted: what the plan inserted.
class TagSpans {
 public:
  explicit TagSpans(const TagPlan& plan) {
    uint64_t added = 0;
    for (const Insertion& insertion : plan.insertions) {
      const size_t begin = insertion.offset + added;
      if (!insertion.text.empty()) spans_.push_back({begin, begin + insertion.text.size()});
      added += insertion.text.size();
    }
  }
  // The tag bytes within [begin, end).
  std::vector<Span> within(size_t begin, size_t end) const {
    std::vector<Span> out;
    auto it = std::upper_bound(spans_.begin(), spans_.end(), begin,
                               [](size_t at, const Span& span) { return at < span.end; });
    for (; it != spans_.end() && it->begin < end; ++it) {
      out.push_back({std::max(it->begin, begin), std::min(it->end, end)});
    }
    return out;
  }
  size_t tag_bytes(size_t begin, size_t end) const {
    size_t total = 0;
    for (const Span& span : within(begin, end)) total += span.end - span.begin;
    return total;
  }

 private:
  std::vector<Span> spans_;
};

enum class Origin { kCode, kTag, kUnaligned };

bool blank(std::string_view text) {
  return text.find_first_not_of(" \t") == std::string_view::npos;
}

// A written line in the place of served tag line `tag`: the tag line edited (rule 3).
bool edited_tag(std::string_view line, std::string_view tag, bool cut_at_end, bool similar) {
  if (blank(line)) return false;
  if (cut_at_end && tag.starts_with(line)) return true;
  if (!similar) return false;
  const size_t shorter = std::min(line.size(), tag.size());
  size_t prefix = 0;
  while (prefix < shorter && line[prefix] == tag[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < shorter && line[line.size() - 1 - suffix] == tag[tag.size() - 1 - suffix]) {
    ++suffix;
  }
  const size_t kept = std::min(prefix + suffix, shorter);
  if (2 * kept >= std::max(line.size(), tag.size())) return true;
  // Or it keeps the tag line's first two words (its comment marker and field name, e.g.
  // "# CALLED_BY:") and changed what follows.
  size_t words_end = 0;
  for (int word = 0; word < 2; ++word) {
    while (words_end < tag.size() && (tag[words_end] == ' ' || tag[words_end] == '\t')) ++words_end;
    if (words_end == tag.size()) return false;
    while (words_end < tag.size() && tag[words_end] != ' ' && tag[words_end] != '\t') ++words_end;
  }
  return prefix >= words_end;
}

class Untagger {
 public:
  Untagger(std::string_view view, const TagSpans& tags, std::string_view written)
      : view_(view), tags_(tags), written_(written), vlines_(split_lines(view)),
        wlines_(split_lines(written)), origin_(wlines_.size(), Origin::kUnaligned) {}

  void align() {
    std::vector<std::string_view> a;
    std::vector<std::string_view> b;
    for (const TextLine& line : vlines_) a.push_back(whole(view_, line));
    for (const TextLine& line : wlines_) b.push_back(whole(written_, line));
    size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
    size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
           a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
      ++suffix;
    }
    std::vector<LinePair> pairs;
    for (size_t i = 0; i < prefix; ++i) pairs.push_back({i, i});
    const std::span<const std::string_view> middle_a(a.data() + prefix, a.size() - prefix - suffix);
    const std::span<const std::string_view> middle_b(b.data() + prefix, b.size() - prefix - suffix);
    if (!middle_a.empty() && !middle_b.empty()) {
      if (auto middle = diff_lines(middle_a, middle_b, kMaxEdits)) {
        for (const LinePair& pair : *middle) pairs.push_back({pair.a + prefix, pair.b + prefix});
      }
    }
    for (size_t i = suffix; i > 0; --i) pairs.push_back({a.size() - i, b.size() - i});

    size_t next_a = 0;
    size_t next_b = 0;
    for (const LinePair& pair : pairs) {
      changed_run(next_a, pair.a, next_b, pair.b);
      aligned(pair.a, pair.b);
      next_a = pair.a + 1;
      next_b = pair.b + 1;
    }
    changed_run(next_a, vlines_.size(), next_b, wlines_.size());
  }

  // Rule 4: runs of lines that are a whole served block, where no line is aligned with code.
  void remove_served_blocks(const ServedBlocks& blocks) {
    for (size_t j = 0; j < wlines_.size();) {
      const size_t length = origin_[j] == Origin::kCode ? 0 : blocks.match_at(written_, wlines_[j].begin);
      if (length == 0) {
        ++j;
        continue;
      }
      const size_t end = wlines_[j].begin + length;
      size_t k = j;
      bool clear = true;
      for (; k < wlines_.size() && wlines_[k].begin < end; ++k) {
        clear = clear && origin_[k] != Origin::kCode;
      }
      if (!clear) {
        ++j;
        continue;
      }
      remove(wlines_[j].begin, end);
      j = k;
    }
  }

  std::vector<Span>& removed() { return removed_; }

  // Whether at least half of the view's non-blank code lines, or of all its non-blank lines, were
  // aligned with written lines: a `sed -i` renaming a name may change most of a small file's code
  // lines but keeps its blocks' unchanged lines where they were. A view of tag lines only (an
  // empty module's file block) has no code to hold: then the written bytes must still hold one
  // of its lines where it was, or nothing ties them to it (a file copied from elsewhere over it,
  // whose tag-shaped lines are the user's).
  bool mostly_aligned() const {
    const size_t code = code_lines();
    if (code == 0) return aligned_lines_ > 0;
    return 2 * aligned_code_ >= code || 2 * aligned_lines_ >= non_blank_lines();
  }

 private:
  static std::string_view whole(std::string_view text, const TextLine& line) {
    return text.substr(line.begin, line.end - line.begin);
  }
  static std::string_view content(std::string_view text, const TextLine& line) {
    return text.substr(line.begin, line.content_end - line.begin);
  }
  void remove(size_t begin, size_t end) {
    if (begin < end) removed_.push_back({begin, end});
  }
  bool all_tag(const TextLine& line) const {
    return tags_.tag_bytes(line.begin, line.end) == line.end - line.begin;
  }

  size_t non_blank_lines() const {
    size_t count = 0;
    for (const TextLine& line : vlines_) count += blank(content(view_, line)) ? 0 : 1;
    return count;
  }
  size_t code_lines() const {
    size_t count = 0;
    for (const TextLine& line : vlines_) count += code_line(line) ? 1 : 0;
    return count;
  }
  bool code_line(const TextLine& line) const {
    return !blank(content(view_, line)) && tags_.tag_bytes(line.begin, line.end) == 0;
  }

  // Rule 1: an aligned line loses the bytes that were tags in the view (same bytes, same places).
  void aligned(size_t i, size_t j) {
    const TextLine& v = vlines_[i];
    const TextLine& w = wlines_[j];
    if (code_line(v)) ++aligned_code_;
    if (!blank(content(view_, v))) ++aligned_lines_;
    const std::vector<Span> spans = tags_.within(v.begin, v.end);
    origin_[j] = spans.empty() ? Origin::kCode : Origin::kTag;
    for (const Span& span : spans) {
      remove(w.begin + (span.begin - v.begin), w.begin + (span.end - v.begin));
    }
  }

  // Served lines [va, vb) became written lines [wa, wb).
  void changed_run(size_t va, size_t vb, size_t wa, size_t wb) {
    if (va == vb || wa == wb || vb - va > kMaxRunLines || wb - wa > kMaxRunLines) return;
    bool only_tags = true;
    for (size_t t = va; t < vb; ++t) only_tags = only_tags && all_tag(vlines_[t]);
    size_t next_tag = va;
    for (size_t j = wa; j < wb; ++j) {
      if (joined(va, vb, j)) continue;
      const TextLine& w = wlines_[j];
      // The file now ends inside a served tag line (truncate -s): the line is what is left of it.
      const bool cut_at_end = wb - wa == 1 && j + 1 == wlines_.size() && w.content_end == w.end;
      if (!only_tags && !cut_at_end) continue;
      for (size_t t = next_tag; t < vb; ++t) {
        const TextLine& v = vlines_[t];
        if (!all_tag(v) || !edited_tag(content(written_, w), content(view_, v), cut_at_end, only_tags)) {
          continue;
        }
        remove(w.begin, w.end);
        origin_[j] = Origin::kTag;
        next_tag = t + 1;
        break;
      }
    }
  }

  // Rule 2: written line `j` is served lines s, s+1, ... of [va, vb) joined, blanks between
  // (a joined line's leading blanks may be gone, as vim's J drops them), code and tags mixed.
  bool joined(size_t va, size_t vb, size_t j) {
    const std::string_view line = content(written_, wlines_[j]);
    for (size_t s = va; s < vb; ++s) {
      struct Part {
        size_t view_begin;     // where the matched bytes start in the view
        size_t written_begin;  // and in the written line
        size_t size;
        size_t separator_begin;  // blanks before this part in the written line
      };
      std::vector<Part> parts;
      size_t pos = 0;
      for (size_t k = s; k < vb && pos <= line.size(); ++k) {
        std::string_view served = content(view_, vlines_[k]);
        // Blank lines joined in between leave only their separators.
        if (!parts.empty() && blank(served)) continue;
        size_t view_begin = vlines_[k].begin;
        size_t separator_begin = pos;
        size_t at = pos;
        if (!parts.empty()) {
          while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
          if (!line.substr(at).starts_with(served)) {
            const size_t lead = served.find_first_not_of(" \t");
            if (lead == std::string_view::npos) break;
            served.remove_prefix(lead);
            view_begin += lead;
          }
        }
        if (served.empty() || !line.substr(at).starts_with(served)) break;
        parts.push_back({view_begin, at, served.size(), separator_begin});
        pos = at + served.size();
        if (pos == line.size()) break;
      }
      if (parts.size() < 2 || pos != line.size()) continue;
      bool any_tag = false;
      bool any_code = false;
      for (const Part& part : parts) {
        const size_t tag = tags_.tag_bytes(part.view_begin, part.view_begin + part.size);
        any_tag = any_tag || tag > 0;
        any_code = any_code || tag < part.size;
      }
      if (!any_tag || !any_code) continue;
      const size_t base = wlines_[j].begin;
      bool kept_code = false;
      for (const Part& part : parts) {
        const size_t tag = tags_.tag_bytes(part.view_begin, part.view_begin + part.size);
        const bool all = tag == part.size;
        if (all || !kept_code) remove(base + part.separator_begin, base + part.written_begin);
        for (const Span& span : tags_.within(part.view_begin, part.view_begin + part.size)) {
          remove(base + part.written_begin + (span.begin - part.view_begin),
                 base + part.written_begin + (span.end - part.view_begin));
        }
        kept_code = kept_code || !all;
      }
      origin_[j] = Origin::kTag;
      return true;
    }
    return false;
  }

  std::string_view view_;
  const TagSpans& tags_;
  std::string_view written_;
  std::vector<TextLine> vlines_;
  std::vector<TextLine> wlines_;
  std::vector<Origin> origin_;
  std::vector<Span> removed_;
  size_t aligned_code_ = 0;
  size_t aligned_lines_ = 0;  // non-blank view lines, tag or code
};

// Rule 4 over a text aligned with nothing (a new file, an append): whole served blocks at line
// starts. No per-line memory: a written file of any size is scanned in place.
void remove_blocks(std::string_view text, const ServedBlocks& blocks, std::vector<Span>& removed) {
  if (blocks.empty()) return;
  size_t pos = 0;
  while (pos < text.size()) {
    if (const size_t length = blocks.match_at(text, pos); length > 0) {
      removed.push_back({pos, pos + length});
      pos += length;
      continue;
    }
    const size_t newline = text.find('\n', pos);
    if (newline == std::string_view::npos) break;
    pos = newline + 1;
  }
}

std::vector<Span> merged(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end(),
            [](const Span& x, const Span& y) { return x.begin < y.begin; });
  std::vector<Span> out;
  for (const Span& span : spans) {
    if (!out.empty() && span.begin <= out.back().end) {
      out.back().end = std::max(out.back().end, span.end);
    } else {
      out.push_back(span);
    }
  }
  return out;
}

// The pieces of [begin, end) of `from` left after `removed` (sorted, within it).
void keep(std::vector<Piece>& pieces, bool from_checkout, size_t begin, size_t end,
          const std::vector<Span>& removed) {
  size_t at = begin;
  const auto add = [&](size_t b, size_t e) {
    if (b >= e) return;
    if (!pieces.empty() && pieces.back().from_checkout == from_checkout && pieces.back().end == b) {
      pieces.back().end = e;
    } else {
      pieces.push_back({from_checkout, b, e});
    }
  };
  for (const Span& span : removed) {
    add(at, span.begin);
    at = span.end;
  }
  add(at, end);
}

TagPlan provenance_of(std::string_view written, const std::vector<Span>& removed) {
  TagPlan plan;
  size_t kept = 0;
  size_t at = 0;
  for (const Span& span : removed) {
    kept += span.begin - at;
    plan.insertions.push_back({kept, std::string(written.substr(span.begin, span.end - span.begin))});
    at = span.end;
  }
  return plan;
}

}  // namespace

void ServedBlocks::add(std::string_view block) {
  if (block.empty()) return;
  const size_t newline = block.find('\n');
  const std::string_view first = newline == std::string_view::npos ? block : block.substr(0, newline + 1);
  by_first_line_[first].push_back(block);
  longest_first_line_ = std::max(longest_first_line_, first.size());
}

void ServedBlocks::add(const TagPlan& plan) {
  for (const Insertion& insertion : plan.insertions) add(insertion.text);
}

size_t ServedBlocks::match_at(std::string_view text, size_t pos) const {
  if (by_first_line_.empty() || pos >= text.size()) return 0;
  const std::string_view rest = text.substr(pos);
  const size_t newline = rest.find('\n');
  const std::string_view first = newline == std::string_view::npos ? rest : rest.substr(0, newline + 1);
  const auto it = by_first_line_.find(first);
  if (it == by_first_line_.end()) return 0;
  size_t longest = 0;
  for (const std::string_view block : it->second) {
    if (block.size() > longest && rest.starts_with(block)) longest = block.size();
  }
  return longest;
}

StoreResult untag_written(const StoreInput& input) {
  StoreResult result;
  const TagPlan empty;
  const TagPlan& plan = input.plan != nullptr ? *input.plan : empty;
  ServedBlocks own;
  own.add(plan);

  if (input.appended_from) {
    // O_APPEND: the appends go to the end of the checkout as it is now; only whole served blocks
    // are removed from them (they were never aligned with a view).
    if (!input.current || *input.appended_from > input.written.size()) {
      result.status = StoreResult::Status::kStale;
      return result;
    }
    const std::string_view tail = input.written.substr(*input.appended_from);
    std::vector<Span> removed;
    remove_blocks(tail, own, removed);
    if (input.blocks != nullptr) remove_blocks(tail, *input.blocks, removed);
    removed = merged(std::move(removed));
    for (Span& span : removed) {
      span.begin += *input.appended_from;
      span.end += *input.appended_from;
    }
    keep(result.pieces, true, 0, input.checkout.size(), {});
    keep(result.pieces, false, *input.appended_from, input.written.size(), removed);
    return result;
  }

  if (input.current != input.served) {
    result.status = StoreResult::Status::kStale;
    return result;
  }
  const std::string view = input.served ? apply(input.checkout, plan) : std::string();
  std::vector<Span> removed;
  std::vector<Span> candidates;
  if (plan.insertions.empty()) {
    // Served untagged: only whole served blocks could go, and usually there are none; the
    // alignment (which only protects code lines here) is paid for when there are.
    remove_blocks(input.written, own, candidates);
    if (input.blocks != nullptr) remove_blocks(input.written, *input.blocks, candidates);
  }
  if (plan.insertions.empty() && candidates.empty()) {
    // nothing served as a tag is there
  } else if (view.empty()) {
    remove_blocks(input.written, own, removed);
    if (input.blocks != nullptr) remove_blocks(input.written, *input.blocks, removed);
  } else {
    const TagSpans tags(plan);
    Untagger untagger(view, tags, input.written);
    untagger.align();
    if (input.rewritten && !untagger.mostly_aligned()) {
      // Not made from the view (cp from elsewhere over the file): whole served blocks only.
      remove_blocks(input.written, own, removed);
      if (input.blocks != nullptr) remove_blocks(input.written, *input.blocks, removed);
    } else {
      untagger.remove_served_blocks(own);
      if (input.blocks != nullptr) untagger.remove_served_blocks(*input.blocks);
      removed = std::move(untagger.removed());
    }
  }
  removed = merged(std::move(removed));
  keep(result.pieces, false, 0, input.written.size(), removed);
  result.provenance = provenance_of(input.written, removed);
  return result;
}

size_t closest_served_plan(std::span<const TagPlan* const> plans, std::string_view written) {
  if (plans.size() < 2) return 0;
  // Each tag line (terminator included) of each plan, counted: hits[line][k] is how often plan
  // k served it; what the written bytes hold of it is taken as often as it was served.
  std::unordered_map<std::string_view, std::vector<size_t>> served;
  for (size_t k = 0; k < plans.size(); ++k) {
    for (const Insertion& insertion : plans[k]->insertions) {
      const std::string_view text = insertion.text;
      for (const TextLine& line : split_lines(text)) {
        std::vector<size_t>& count = served[text.substr(line.begin, line.end - line.begin)];
        count.resize(plans.size());
        ++count[k];
      }
    }
  }
  std::unordered_map<std::string_view, size_t> held;
  for (size_t begin = 0; begin < written.size();) {
    const size_t newline = written.find('\n', begin);
    const size_t end = newline == std::string_view::npos ? written.size() : newline + 1;
    const std::string_view line = written.substr(begin, end - begin);
    if (served.contains(line)) ++held[line];
    begin = end;
  }
  std::vector<size_t> score(plans.size());
  for (const auto& [line, count] : held) {
    const std::vector<size_t>& by_plan = served.at(line);
    for (size_t k = 0; k < plans.size(); ++k) score[k] += std::min(count, by_plan[k]);
  }
  size_t best = 0;
  for (size_t k = 1; k < plans.size(); ++k) {
    if (score[k] > score[best]) best = k;
  }
  return best;
}

std::string assemble(const StoreResult& result, std::string_view checkout,
                     std::string_view written) {
  std::string out;
  for (const Piece& piece : result.pieces) {
    const std::string_view from = piece.from_checkout ? checkout : written;
    out.append(from.substr(piece.begin, piece.end - piece.begin));
  }
  return out;
}

std::string untag_with_plan(std::string_view checkout, const TagPlan& plan,
                            std::string_view written, const ServedBlocks* blocks) {
  const FileVersion same;
  const StoreResult result = untag_written({.plan = &plan,
                                           .served = same,
                                           .current = same,
                                           .checkout = checkout,
                                           .written = written,
                                           .appended_from = std::nullopt,
                                           .blocks = blocks});
  return assemble(result, checkout, written);
}

}  // namespace anchorfs::render
