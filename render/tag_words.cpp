// One pass for the four words of tag delimiters: candidates found sixteen bytes at a time.
#include "render/tag_words.h"

#include <array>
#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace anchorfs::render {
namespace {

constexpr std::string_view kTitle = " Annotation ===";
constexpr size_t kTitleFirstEquals = 12;  // kTitle[12..13] is "=="
constexpr std::array<std::string_view, 3> kAfterAt = {"function ", "class ", "file "};

// Whether a word starts around offset `q`, which holds '@' or the first of "==". Each word holds
// one of the two at a fixed place (" @…": '@' at 1; kTitle: "==" at 12), so checking every such
// offset finds every occurrence.
bool word_at(std::string_view text, size_t q) {
  if (text[q] == '@') {
    if (q == 0 || text[q - 1] != ' ') return false;
    const std::string_view after = text.substr(q + 1);
    for (const std::string_view w : kAfterAt) {
      if (after.starts_with(w)) return true;
    }
    return false;
  }
  return q >= kTitleFirstEquals && text.substr(q - kTitleFirstEquals).starts_with(kTitle);
}

bool candidate(std::string_view text, size_t q) {
  return text[q] == '@' || (text[q] == '=' && q + 1 < text.size() && text[q + 1] == '=');
}

}  // namespace

size_t next_tag_word(std::string_view text, size_t from) {
  size_t i = from;
#if defined(__SSE2__)
  // Sixteen offsets at a time (their next bytes read too): '@', or '=' before '='. Code holds
  // few of either, so most blocks are passed over with no byte looked at.
  const __m128i at = _mm_set1_epi8('@');
  const __m128i equals = _mm_set1_epi8('=');
  for (; i + 17 <= text.size(); i += 16) {
    const auto* p = reinterpret_cast<const __m128i*>(text.data() + i);
    const __m128i here = _mm_loadu_si128(p);
    const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i + 1));
    const __m128i hit = _mm_or_si128(
        _mm_cmpeq_epi8(here, at),
        _mm_and_si128(_mm_cmpeq_epi8(here, equals), _mm_cmpeq_epi8(next, equals)));
    for (auto mask = static_cast<unsigned>(_mm_movemask_epi8(hit)); mask != 0; mask &= mask - 1) {
      const size_t q = i + static_cast<size_t>(__builtin_ctz(mask));
      if (word_at(text, q)) return q;
    }
  }
#endif
  for (; i < text.size(); ++i) {
    if (candidate(text, i) && word_at(text, i)) return i;
  }
  return std::string_view::npos;
}

bool holds_tag_word(std::string_view text) {
  return next_tag_word(text, 0) != std::string_view::npos;
}

}  // namespace anchorfs::render
