// libFuzzer target: strip() over arbitrary bytes. Invariants: no crash; text without
// delimiter-like lines comes back unchanged; stripping never adds bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include "render/tag_plan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string stripped = anchorfs::render::strip(input);
  if (!anchorfs::fuzz::has_delimiter_like_line(input) && stripped != input) {
    anchorfs::fuzz::fail("strip changed text without tag delimiters", input);
  }
  if (stripped.size() > input.size()) anchorfs::fuzz::fail("strip grew its input", input);
  return 0;
}
