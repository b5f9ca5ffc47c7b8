// Encoding rendered views for the cache (see view_record.h).
#include "refresh/view_record.h"

#include <xxhash.h>

#include <cstdint>
#include <cstring>

#include "analysis/byte_codec.h"

namespace anchorfs::refresh {
namespace {

constexpr std::string_view kMagic = "AFVW";
// Bump when the layout below or what a view record stands for changes.
constexpr uint64_t kViewFormatVersion = 2;

uint64_t double_bits(double value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace

analysis::ResolutionKey view_key(const analysis::ResolutionKey& analysis,
                                 const render::ViewOptions& view) {
  analysis::ByteWriter w;
  w.raw(kMagic);
  w.u64(kViewFormatVersion);
  w.u64(analysis.low);
  w.u64(analysis.high);
  w.u64(static_cast<uint64_t>(view.view));
  w.u64(static_cast<uint64_t>(view.style));
  w.u64(view.max_links);
  w.u64(view.hub_threshold.has_value());
  w.u64(view.hub_threshold.value_or(0));
  w.u64(view.tag_budget.has_value());
  w.u64(double_bits(view.tag_budget.value_or(0)));
  const std::string bytes = w.take();
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return {h.low64, h.high64};
}

ViewParts view_parts(const Prepared& prepared) {
  return {prepared.analysis.stats, prepared.analysed_files, prepared.entities, prepared.edges,
          prepared.choice.reason,  prepared.analysis.skipped, *prepared.plans};
}

std::string encode_view(const ViewParts& view) {
  analysis::ByteWriter w;
  w.raw(kMagic);
  w.u64(kViewFormatVersion);
  w.u64(view.stats.source_files);
  w.u64(view.stats.lines);
  w.u64(view.analysed_files);
  w.u64(view.entities);
  w.u64(view.edges);
  w.str(view.reason);
  w.u64(view.skipped.size());
  for (const analysis::SkippedFile& skipped : view.skipped) {
    w.str(skipped.path);
    w.str(skipped.reason);
  }
  // Last, as FileLayout reads it (render/laid_out_plans.h): loading copies no text.
  std::string bytes = w.take();
  bytes.reserve(bytes.size() + view.plans.section_bytes());
  view.plans.append_bytes(bytes);
  return bytes;
}

std::optional<Prepared> decode_view(std::string bytes) {
  auto record = std::make_shared<const std::string>(std::move(bytes));
  analysis::ByteReader r(*record);
  if (!r.expect(kMagic) || r.u64() != kViewFormatVersion) return std::nullopt;
  Prepared prepared;
  prepared.analysed = true;
  analysis::AnalysisStats& stats = prepared.analysis.stats;
  stats.source_files = r.u64();
  stats.lines = r.u64();
  prepared.analysed_files = r.u64();
  stats.from_cache = prepared.analysed_files;
  stats.graph_from_cache = true;
  prepared.entities = r.u64();
  prepared.edges = r.u64();
  prepared.choice.reason = r.str();
  prepared.analysis.skipped.resize(r.count());
  for (analysis::SkippedFile& skipped : prepared.analysis.skipped) {
    skipped.path = r.str();
    skipped.reason = r.str();
  }
  if (!r.ok()) return std::nullopt;
  prepared.plans = render::LaidOutPlans::read(record, r.position());
  if (prepared.plans == nullptr) return std::nullopt;
  return prepared;
}

}  // namespace anchorfs::refresh
