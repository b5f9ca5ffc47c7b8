// libFuzzer target: the graph cache's decoder over damaged encodings. The first input byte picks
// the damage to a real encoding (made at start-up, so the seeds never go stale when the analyser
// version changes): raw bytes, bytes overwritten, a truncation. Invariants: no crash; what decodes
// is a consistent graph that every view renders with sorted plans; a decoded analysis encodes
// back to bytes that decode to the same encoding again.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "analysis/analyze.h"
#include "analysis/graph_serialize.h"
#include "analysis/source_tree.h"
#include "fuzz/fuzz_support.h"
#include "render/view.h"

namespace {

using anchorfs::render::View;

constexpr View kViews[] = {View::None, View::Topo, View::Inv, View::Dense, View::Auto};

// A small repository with every relation, decorators, lambdas, a skipped file and dense facts.
std::string valid_encoding() {
  anchorfs::fuzz::ScratchRepo repo;
  repo.write({{"a.py",
               "import os\nfrom pkg.c import Base, helper\nMAX = 3\n\n"
               "class A(Base):\n    @staticmethod\n    def run(x):\n"
               "        return helper(lambda y: y + MAX, os.environ.get('HOME'))\n"},
              {"b.py", "from a import A\n\ndef main():\n    A.run(1)\n    A().run(2)\n"},
              {"pkg/c.py",
               "class Base:\n    pass\n\ndef helper(f, v):\n    return f(v)\n"
               "def broken(:\n"}});
  std::string encoded = anchorfs::analysis::serialize_analysis(
      anchorfs::analysis::analyze(anchorfs::analysis::scan_tree(repo.root()), {}));
  if (!anchorfs::analysis::deserialize_analysis(encoded)) {
    anchorfs::fuzz::fail("a fresh encoding does not decode", encoded);
  }
  return encoded;
}

// The bytes to decode: input[0] % 3 == 0 the rest of the input as is; 1 the valid encoding with
// (offset, byte) pairs from the input written over it; 2 the valid encoding cut to a length.
std::string damaged(std::string_view input) {
  static const std::string valid = valid_encoding();
  if (input.empty()) return valid;
  const auto mode = static_cast<uint8_t>(input[0]) % 3;
  input.remove_prefix(1);
  if (mode == 0) return std::string(input);
  std::string bytes = valid;
  if (mode == 1) {
    for (size_t i = 0; i + 2 < input.size() && !bytes.empty(); i += 3) {
      const size_t offset =
          (static_cast<uint8_t>(input[i]) << 8 | static_cast<uint8_t>(input[i + 1]));
      bytes[offset % bytes.size()] = input[i + 2];
    }
    return bytes;
  }
  size_t length = 0;
  for (char c : input.substr(0, 4)) length = length << 8 | static_cast<uint8_t>(c);
  bytes.resize(bytes.empty() ? 0 : length % bytes.size());
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input = damaged(std::string_view(reinterpret_cast<const char*>(data), size));
  const auto decoded = anchorfs::analysis::deserialize_analysis(input);
  if (!decoded) return 0;
  if (!anchorfs::analysis::graph_is_consistent(decoded->graph)) {
    anchorfs::fuzz::fail("decoded an inconsistent graph", input);
  }
  for (View view : kViews) {
    anchorfs::render::ViewOptions options;
    options.view = view;
    const auto choice = anchorfs::render::choose_view(decoded->graph, options);
    const auto plans = anchorfs::render::plans_by_path(decoded->graph, choice);
    for (const auto& [path, plan] : plans) {
      uint64_t previous = 0;
      for (const auto& insertion : plan.insertions) {
        if (insertion.offset < previous) anchorfs::fuzz::fail("plan offsets unsorted", path);
        previous = insertion.offset;
      }
    }
  }
  const std::string encoded = anchorfs::analysis::serialize_analysis(*decoded);
  const auto again = anchorfs::analysis::deserialize_analysis(encoded);
  if (!again) anchorfs::fuzz::fail("a decoded analysis does not decode once encoded", input);
  if (anchorfs::analysis::serialize_analysis(*again) != encoded) {
    anchorfs::fuzz::fail("encoding is not stable across a decode", input);
  }
  return 0;
}
