// BPE token counting with a tiktoken vocabulary: PCRE2 pre-tokenisation, rank-ordered merges.
#include "render/token_count.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <fmt/format.h>
#include <pcre2.h>

#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace anchorfs::render {
namespace {

std::string base64_decode(std::string_view in) {
  static const std::array<int8_t, 256> table = [] {
    std::array<int8_t, 256> t{};
    t.fill(-1);
    const std::string_view alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < alphabet.size(); ++i) {
      t[static_cast<unsigned char>(alphabet[i])] = static_cast<int8_t>(i);
    }
    return t;
  }();
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : in) {
    int8_t value = table[static_cast<unsigned char>(c)];
    if (value < 0) break;  // '=' padding ends the data
    buffer = (buffer << 6) | static_cast<uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  return out;
}

class BpeCounter final : public TokenCounter {
 public:
  BpeCounter(std::string name, std::unordered_map<std::string, uint32_t> ranks, pcre2_code* pattern)
      : name_(std::move(name)), ranks_(std::move(ranks)), pattern_(pattern) {}
  ~BpeCounter() override { pcre2_code_free(pattern_); }
  BpeCounter(const BpeCounter&) = delete;
  BpeCounter& operator=(const BpeCounter&) = delete;

  std::string name() const override { return name_; }

  size_t count(std::string_view text) const override {
    // Pieces repeat heavily in code (names, indents, punctuation): each thread remembers them.
    thread_local std::unordered_map<std::string, uint32_t> memo;
    thread_local const BpeCounter* memo_owner = nullptr;
    if (memo_owner != this) {
      memo.clear();
      memo_owner = this;
    }
    pcre2_match_data* match = pcre2_match_data_create_from_pattern(pattern_, nullptr);
    size_t tokens = 0;
    size_t pos = 0;
    std::string piece;
    while (pos < text.size()) {
      int rc = pcre2_match(pattern_, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), pos,
                           0, match, nullptr);
      if (rc < 0) {
        tokens += text.size() - pos;  // bytes no piece covers (invalid UTF-8): a token each
        break;
      }
      const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(match);
      size_t begin = ovector[0];
      size_t end = ovector[1];
      tokens += begin - pos;
      if (end == begin) {
        pos = begin + 1;
        continue;
      }
      piece.assign(text.substr(begin, end - begin));
      auto hit = memo.find(piece);
      if (hit == memo.end()) hit = memo.emplace(piece, merge_count(piece)).first;
      tokens += hit->second;
      pos = end;
    }
    pcre2_match_data_free(match);
    return tokens;
  }

 private:
  static constexpr uint32_t kNoRank = std::numeric_limits<uint32_t>::max();

  uint32_t rank(std::string_view bytes) const {
    auto it = ranks_.find(std::string(bytes));
    return it == ranks_.end() ? kNoRank : it->second;
  }

  // Byte-pair merges in rank order, as tiktoken does; returns the number of tokens.
  uint32_t merge_count(const std::string& piece) const {
    if (ranks_.contains(piece)) return 1;
    std::vector<size_t> starts(piece.size() + 1);
    for (size_t i = 0; i <= piece.size(); ++i) starts[i] = i;
    while (starts.size() > 2) {
      uint32_t best = kNoRank;
      size_t best_at = 0;
      for (size_t i = 0; i + 2 < starts.size(); ++i) {
        uint32_t r = rank(std::string_view(piece).substr(starts[i], starts[i + 2] - starts[i]));
        if (r < best) {
          best = r;
          best_at = i;
        }
      }
      if (best == kNoRank) break;
      starts.erase(starts.begin() + static_cast<std::ptrdiff_t>(best_at) + 1);
    }
    return static_cast<uint32_t>(starts.size() - 1);
  }

  std::string name_;
  std::unordered_map<std::string, uint32_t> ranks_;
  pcre2_code* pattern_;
};

class ByteEstimator final : public TokenCounter {
 public:
  size_t count(std::string_view text) const override {
    return static_cast<size_t>(std::ceil(static_cast<double>(text.size()) / kBytesPerToken));
  }
  std::string name() const override { return fmt::format("estimate (bytes / {})", kBytesPerToken); }
};

}  // namespace

std::unique_ptr<TokenCounter> load_bpe_vocabulary(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read " + path;
    return nullptr;
  }
  std::ostringstream text;
  text << in.rdbuf();
  nlohmann::json encoder = nlohmann::json::parse(text.str(), nullptr, false);
  if (encoder.is_discarded() || !encoder.contains("pat_str") || !encoder.contains("bpe_ranks") ||
      !encoder["pat_str"].is_string() || !encoder["bpe_ranks"].is_string()) {
    error = path + ": not a tiktoken encoder file (pat_str, bpe_ranks)";
    return nullptr;
  }
  // bpe_ranks: lines "<marker> <first rank> <base64 token> <base64 token> ...", ranks consecutive.
  std::unordered_map<std::string, uint32_t> ranks;
  std::istringstream lines(encoder["bpe_ranks"].get<std::string>());
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string marker, token;
    uint64_t rank = 0;
    if (!(fields >> marker >> rank)) continue;
    while (fields >> token) ranks.emplace(base64_decode(token), static_cast<uint32_t>(rank++));
  }
  if (ranks.size() < 256) {
    error = path + ": no BPE ranks";
    return nullptr;
  }
  const std::string pattern_text = encoder["pat_str"].get<std::string>();
  int code = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* pattern = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern_text.data()),
                                      pattern_text.size(),
                                      PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &code,
                                      &offset, nullptr);
  if (pattern == nullptr) {
    error = fmt::format("{}: pat_str does not compile (PCRE2 error {} at {})", path, code, offset);
    return nullptr;
  }
  pcre2_jit_compile(pattern, PCRE2_JIT_COMPLETE);
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (name.ends_with(".json")) name.resize(name.size() - 5);
  return std::make_unique<BpeCounter>(std::move(name), std::move(ranks), pattern);
}

std::unique_ptr<TokenCounter> byte_estimator() {
  return std::make_unique<ByteEstimator>();
}

}  // namespace anchorfs::render
