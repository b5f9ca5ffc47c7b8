// Word coverage: rendering every entity's block in paper and in the asked style, comparing words.
#include "render/coverage.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <iterator>
#include <optional>

#include "render/block.h"
#include "render/delimiter.h"
#include "render/render_index.h"
#include "render/sanitize.h"

namespace anchorfs::render {

using analysis::EntityIndex;
using analysis::EntityKind;

namespace {

bool word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}
bool upper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool lower(char c) {
  return c >= 'a' && c <= 'z';
}

// The text of the lines of `block` (one entity's block) a reader gets words from. For paper:
// field values, without the name line, the `(+K more)` counts and `skipped` fields.
std::string paper_words_text(std::string_view block, const std::vector<bool>& skipped) {
  std::string text;
  size_t pos = 0;
  while (pos < block.size()) {
    size_t end = block.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) end = block.size();
    std::string_view line = block.substr(pos, end - pos);
    pos = end + 1;
    std::optional<size_t> field = field_line_index(line);
    if (!field || skipped[*field]) continue;
    std::string_view values = line.substr(line.find(": ") + 2);
    // "…" (or "...") "(+K more)": the count is no word of the links.
    size_t more = values.rfind(" (+");
    if (more != std::string_view::npos && values.ends_with(" more)")) {
      values = values.substr(0, more);
    }
    text += values;
    text += '\n';
  }
  return text;
}

struct FileCoverage {
  uint64_t blocks = 0, full_blocks = 0, words = 0, covered = 0;
  double ratio_sum = 0;
};

}  // namespace

std::vector<std::string> identifier_words(std::string_view text) {
  std::vector<std::string> words;
  auto add = [&](std::string_view word) {
    if (word.empty()) return;
    std::string folded(word);
    for (char& c : folded) {
      if (upper(c)) c = static_cast<char>(c - 'A' + 'a');
    }
    words.push_back(std::move(folded));
  };
  size_t i = 0;
  while (i < text.size()) {
    if (!word_byte(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && word_byte(static_cast<unsigned char>(text[end]))) ++end;
    // camelCase: a cut before an upper-case letter that follows a lower-case letter or digit,
    // or that starts a lower-case run after other upper-case letters.
    size_t start = i;
    for (size_t k = i + 1; k < end; ++k) {
      const bool after_lower =
          (lower(text[k - 1]) || (text[k - 1] >= '0' && text[k - 1] <= '9')) && upper(text[k]);
      const bool acronym_end =
          upper(text[k - 1]) && upper(text[k]) && k + 1 < end && lower(text[k + 1]);
      if (after_lower || acronym_end) {
        add(text.substr(start, k - start));
        start = k;
      }
    }
    add(text.substr(start, end - start));
    i = end;
  }
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

WordCoverage word_coverage(const GraphIndex& index, const ViewChoice& choice) {
  const analysis::Graph& graph = index.graph();
  const BlockPolicy policy = policy_for(choice);
  BlockPolicy paper = policy;
  paper.style = Style::Paper;
  std::vector<FileCoverage> per_file(graph.files.size());
  tbb::parallel_for(tbb::blocked_range<size_t>(0, graph.files.size(), 16),
                    [&](const tbb::blocked_range<size_t>& range) {
                      BlockScratch scratch;
                      std::string paper_block, block, indent;
                      for (size_t f = range.begin(); f != range.end(); ++f) {
                        std::optional<LineLayout> layout = line_layout(graph.files[f]);
                        if (!layout) continue;
                        FileCoverage& cover = per_file[f];
                        for (EntityIndex e : index.entities_of(f)) {
                          const analysis::Entity& entity = graph.entities[e];
                          if (!entity.anchor) continue;
                          indent = sanitized_indent(entity.anchor->indent);
                          layout->indent = indent;
                          paper_block.clear();
                          block.clear();
                          if (!append_block(paper_block, index, e, paper, *layout, scratch))
                            continue;
                          append_block(block, index, e, policy, *layout, scratch);
                          // What the asked style leaves to the code (the same rules as
                          // append_block's).
                          std::vector<bool> skipped(std::size(kFieldNames), false);
                          if (policy.style == Style::Lean) {
                            skipped[0] = true;                             // PARENT
                            skipped[1] = layout->nesting_shown_by_indent;  // CHILDREN
                            skipped[2] = entity.kind == EntityKind::File;  // a file's IMPORTS
                          }
                          std::vector<std::string> wanted =
                              identifier_words(paper_words_text(paper_block, skipped));
                          if (wanted.empty()) continue;
                          std::vector<std::string> got = identifier_words(block);
                          uint64_t hit = 0;
                          for (const std::string& word : wanted) {
                            hit += std::binary_search(got.begin(), got.end(), word);
                          }
                          ++cover.blocks;
                          cover.full_blocks += hit == wanted.size();
                          cover.words += wanted.size();
                          cover.covered += hit;
                          cover.ratio_sum +=
                              static_cast<double>(hit) / static_cast<double>(wanted.size());
                        }
                      }
                    });
  WordCoverage total;
  double ratio_sum = 0;
  for (const FileCoverage& cover : per_file) {
    total.blocks += cover.blocks;
    total.full_blocks += cover.full_blocks;
    total.words += cover.words;
    total.covered += cover.covered;
    ratio_sum += cover.ratio_sum;
  }
  if (total.blocks > 0) total.mean = ratio_sum / static_cast<double>(total.blocks);
  return total;
}

}  // namespace anchorfs::render
