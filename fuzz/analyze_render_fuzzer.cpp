// libFuzzer target: analyse and render up to three modules of one language built from the input.
// Invariants: no crash; every plan is sorted and inside its file; strip(apply(x)) == x for
// sources without delimiter-like lines; the `none` view plans nothing; rendering is
// deterministic (a second analysis on two threads gives identical plans).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "analysis/analyze.h"
#include "analysis/source_tree.h"
#include "fuzz/fuzz_support.h"
#include "render/tag_plan.h"
#include "render/view.h"

namespace {

using anchorfs::analysis::Analysis;
using anchorfs::render::TagPlan;
using anchorfs::render::View;

constexpr View kViews[] = {View::None, View::Topo, View::Inv, View::Dense, View::Auto};

Analysis analyse(const std::string& root, unsigned threads) {
  anchorfs::analysis::AnalysisOptions options;
  options.threads = threads;
  return anchorfs::analysis::analyze(anchorfs::analysis::scan_tree(root), options);
}

bool same_plans(const std::vector<TagPlan>& a, const std::vector<TagPlan>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].insertions.size() != b[i].insertions.size()) return false;
    for (size_t j = 0; j < a[i].insertions.size(); ++j) {
      if (a[i].insertions[j].offset != b[i].insertions[j].offset ||
          a[i].insertions[j].text != b[i].insertions[j].text) {
        return false;
      }
    }
  }
  return true;
}

void check_plan(const std::string& path, const std::string& original, const TagPlan& plan,
                View view) {
  uint64_t previous = 0;
  for (const auto& insertion : plan.insertions) {
    if (insertion.offset < previous || insertion.offset > original.size()) {
      anchorfs::fuzz::fail("plan offsets unsorted or outside the file", path);
    }
    previous = insertion.offset;
  }
  if (view == View::None && !plan.insertions.empty()) {
    anchorfs::fuzz::fail("view none planned insertions", path);
  }
  const std::string tagged = anchorfs::render::apply(original, plan);
  if (tagged.size() != original.size() + plan.added_bytes()) {
    anchorfs::fuzz::fail("apply size differs from size + added_bytes", path);
  }
  if (!anchorfs::fuzz::has_delimiter_like_line(original) &&
      anchorfs::render::strip(tagged) != original) {
    anchorfs::fuzz::fail("strip(apply(x)) != x", path + "\n--- tagged ---\n" + tagged);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static anchorfs::fuzz::ScratchRepo repo;
  const auto files =
      anchorfs::fuzz::split_modules(std::string_view(reinterpret_cast<const char*>(data), size));
  repo.write(files);
  std::map<std::string, std::string> bytes_by_path{{"pkg/__init__.py", ""}};
  for (const auto& file : files) bytes_by_path[file.path] = file.bytes;

  const Analysis first = analyse(repo.root(), 1);
  const Analysis second = analyse(repo.root(), 2);
  for (View view : kViews) {
    anchorfs::render::ViewOptions requested;
    requested.view = view;
    const auto choice = anchorfs::render::choose_view(first.graph, requested);
    const auto plans = anchorfs::render::render_plans(first.graph, choice);
    if (plans.size() != first.graph.files.size()) {
      anchorfs::fuzz::fail("one plan per file", std::to_string(plans.size()));
    }
    const auto again = anchorfs::render::render_plans(
        second.graph, anchorfs::render::choose_view(second.graph, requested));
    if (!same_plans(plans, again)) {
      anchorfs::fuzz::fail("rendering is not deterministic", anchorfs::render::view_name(view));
    }
    for (size_t i = 0; i < plans.size(); ++i) {
      const std::string path = first.graph.id(first.graph.files[i].entity);
      const auto found = bytes_by_path.find(path);
      if (found == bytes_by_path.end()) anchorfs::fuzz::fail("analysed a file never written", path);
      check_plan(path, found->second, plans[i], choice.view);
    }
  }
  return 0;
}
