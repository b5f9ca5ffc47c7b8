// render_laid_out: files rendered in parallel, each written once, laid out, into its thread's
// blocks.
#include "render/render_laid_out.h"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "render/render_index.h"

namespace anchorfs::render {
namespace {

// A thread's block is at least this large: few blocks (a handful of buffers for the view to
// keep), and a block never grows, so what is written in it is never copied.
constexpr size_t kBlockBytes = size_t{1} << 20;

// Where a file's entry went: its thread's block and the offset in it (pointers are taken once
// every block is final).
struct Written {
  const std::string* block = nullptr;
  size_t at = 0;
  size_t path_bytes = 0;
  size_t insertions = 0;
  uint64_t text_bytes = 0;
};

// One thread's scratch and blocks.
struct Writer {
  BlockScratch scratch;
  FileTags tags;
  std::vector<std::shared_ptr<std::string>> blocks;

  // Appends `path` and the plan in `tags` to the current block (a new one when it does not fit).
  Written write(std::string_view path) {
    const size_t n = tags.offsets.size();
    const size_t bytes = path.size() + 16 * n + tags.texts.size();
    if (blocks.empty() || blocks.back()->capacity() - blocks.back()->size() < bytes) {
      blocks.push_back(std::make_shared<std::string>());
      blocks.back()->reserve(std::max(kBlockBytes, bytes));
    }
    std::string& block = *blocks.back();
    const Written written{&block, block.size(), path.size(), n, tags.texts.size()};
    // LaidOutPlan's words are the host's uint64_t bytes, as append_laid_out writes them.
    block.append(path);
    block.append(reinterpret_cast<const char*>(tags.offsets.data()), 8 * n);
    block.append(reinterpret_cast<const char*>(tags.ends.data()), 8 * n);
    block.append(tags.texts);
    return written;
  }
};

}  // namespace

std::shared_ptr<const LaidOutPlans> render_laid_out(const analysis::Graph& graph,
                                                    const ViewChoice& requested,
                                                    GraphIndex* prepared) {
  const ViewChoice choice =
      requested.view == View::Auto ? choose_view(graph, requested.options) : requested;
  if (choice.view == View::None) return LaidOutPlans::lay_out({});
  const auto path_of = [&](size_t f) -> const std::string& {
    return graph.entities[graph.files[f].entity].name;
  };
  // Files by path (the analysis numbers them so already; a decoded graph might not).
  std::vector<size_t> order(graph.files.size());
  std::iota(order.begin(), order.end(), size_t{0});
  const auto by_path = [&](size_t a, size_t b) { return path_of(a) < path_of(b); };
  if (!std::is_sorted(order.begin(), order.end(), by_path)) {
    std::stable_sort(order.begin(), order.end(), by_path);
  }
  std::optional<GraphIndex> built;
  if (prepared == nullptr || !prepared->add_edges(graph)) prepared = &built.emplace(graph);
  const GraphIndex& index = *prepared;
  const BlockPolicy policy = policy_for(choice);
  std::vector<Written> written(order.size());
  tbb::enumerable_thread_specific<Writer> writers;
  tbb::parallel_for(tbb::blocked_range<size_t>(0, order.size(), files_per_task(order.size())),
                    [&](const tbb::blocked_range<size_t>& range) {
                      Writer& writer = writers.local();
                      for (size_t i = range.begin(); i != range.end(); ++i) {
                        render_file_tags(index, order[i], policy, writer.scratch, writer.tags);
                        // An empty plan is served unchanged: plans_by_path leaves it out.
                        if (!writer.tags.offsets.empty()) {
                          written[i] = writer.write(path_of(order[i]));
                        }
                      }
                    });
  LaidOutPlans::Buffers buffers;
  for (Writer& writer : writers) {
    for (std::shared_ptr<std::string>& block : writer.blocks) buffers.push_back(std::move(block));
  }
  std::vector<LaidOutPlan> files;
  for (const Written& w : written) {
    if (w.block == nullptr) continue;
    LaidOutPlan plan;
    plan.path = std::string_view(w.block->data() + w.at, w.path_bytes);
    if (!files.empty() && files.back().path == plan.path) {
      throw std::invalid_argument("two tag plans for " + std::string(plan.path));
    }
    plan.insertions = w.insertions;
    plan.text_bytes = w.text_bytes;
    plan.data = w.block->data() + w.at + w.path_bytes;
    files.push_back(plan);
  }
  return LaidOutPlans::adopt(std::move(buffers), std::move(files));
}

}  // namespace anchorfs::render
