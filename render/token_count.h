// Token counts for `anchorfs stats`: a tiktoken-compatible BPE vocabulary, or a byte estimator.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace anchorfs::render {

// Counts the tokens a model would read for a text. Implementations are thread-safe. Used by
// `stats` only: the read path never tokenizes.
class TokenCounter {
 public:
  virtual ~TokenCounter() = default;
  virtual size_t count(std::string_view text) const = 0;
  // "o200k_base" for a vocabulary (its file name), "estimate (bytes / 3.4)" otherwise.
  virtual std::string name() const = 0;
};

// Loads a tiktoken encoder file (JSON with "pat_str" and "bpe_ranks", as the `tiktoken` npm
// package ships them). nullptr with `error` set when the file is missing or malformed.
std::unique_ptr<TokenCounter> load_bpe_vocabulary(const std::string& path, std::string& error);

// The estimator used when no vocabulary is available: ceil(bytes / kBytesPerToken). Validated
// against o200k_base on tag text of sympy and django (docs/views.md).
inline constexpr double kBytesPerToken = 3.4;
std::unique_ptr<TokenCounter> byte_estimator();

}  // namespace anchorfs::render
