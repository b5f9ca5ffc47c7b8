// Word coverage: how many of the identifier words of paper's blocks another style's blocks keep.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "render/graph_index.h"
#include "render/view.h"

namespace anchorfs::render {

// The identifier words of `text`: split on every character that is not a letter, digit or
// non-ASCII byte (so on `/ . _ :`, spaces and punctuation), then on camelCase (`HttpResponse` ->
// `http`, `response`; `HTTPServer` -> `http`, `server`), lower-cased, sorted, distinct.
std::vector<std::string> identifier_words(std::string_view text);

// Summed over blocks: words of paper's block (its field values, without the fields the other
// style leaves to the code, docs/tag-format.md "Word coverage") that the other style's block of
// the same entity also contains.
struct WordCoverage {
  uint64_t blocks = 0;       // paper blocks with at least one word to cover
  uint64_t full_blocks = 0;  // of which the other block holds every word
  uint64_t words = 0;        // words to cover, summed over blocks
  uint64_t covered = 0;      // of which covered
  double mean = 1;           // mean over blocks of covered / words (1 without blocks)
};

// Coverage of `choice`'s style against paper under the same view and options. Deterministic
// whatever the thread count.
WordCoverage word_coverage(const GraphIndex& index, const ViewChoice& choice);

}  // namespace anchorfs::render
