// Lays plans out in one buffer and reads them back, checking everything a damaged record could
// get wrong.
#include "render/laid_out_plans.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "analysis/byte_codec.h"

namespace anchorfs::render {
namespace {

void append_u64(std::string& out, uint64_t v) {
  char bytes[sizeof v];
  std::memcpy(bytes, &v, sizeof v);
  out.append(bytes, sizeof v);
}

void append_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

bool well_formed(const LaidOutPlan& plan) {
  uint64_t offset = 0;
  uint64_t end = 0;
  for (size_t k = 0; k < plan.insertions; ++k) {
    const uint64_t next_offset = plan.offset(k);
    const uint64_t next_end = plan.text_end_before(k + 1);
    if (next_offset < offset || next_end < end) return false;
    offset = next_offset;
    end = next_end;
  }
  return end == plan.text_bytes;
}

}  // namespace

TagPlan LaidOutPlan::plan() const {
  TagPlan plan;
  plan.insertions.reserve(insertions);
  for (size_t k = 0; k < insertions; ++k) {
    plan.insertions.push_back({offset(k), std::string(text(k))});
  }
  return plan;
}

bool LaidOutPlan::same_insertions(const LaidOutPlan& other) const {
  if (insertions != other.insertions || text_bytes != other.text_bytes) return false;
  if (data == other.data) return true;
  return std::memcmp(data, other.data, 16 * insertions + text_bytes) == 0;
}

void append_laid_out(std::string& out, const TagPlan& plan) {
  for (const Insertion& insertion : plan.insertions) append_u64(out, insertion.offset);
  uint64_t end = 0;
  for (const Insertion& insertion : plan.insertions) {
    end += insertion.text.size();
    append_u64(out, end);
  }
  for (const Insertion& insertion : plan.insertions) out += insertion.text;
}

LaidOutPlans::LaidOutPlans() : buffer_(std::make_shared<const std::string>(1, '\0')) {}

std::shared_ptr<const LaidOutPlans> LaidOutPlans::lay_out(const PlansByPath& plans) {
  std::vector<size_t> order(plans.size());
  std::iota(order.begin(), order.end(), size_t{0});
  if (!std::is_sorted(plans.begin(), plans.end(),
                      [](const auto& a, const auto& b) { return a.first < b.first; })) {
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return plans[a].first < plans[b].first; });
  }
  size_t size = 10;
  for (size_t i = 0; i < order.size(); ++i) {
    const auto& [path, plan] = plans[order[i]];
    if (i > 0 && plans[order[i - 1]].first == path) {
      throw std::invalid_argument("two tag plans for " + path);
    }
    if (!std::is_sorted(
            plan.insertions.begin(), plan.insertions.end(),
            [](const Insertion& a, const Insertion& b) { return a.offset < b.offset; })) {
      throw std::invalid_argument("tag plan for " + path + " is not sorted by offset");
    }
    size += 30 + path.size() + 16 * plan.insertions.size() + plan.added_bytes();
  }
  std::string bytes;
  bytes.reserve(size);  // one allocation for the whole view
  append_varint(bytes, plans.size());
  for (const size_t i : order) {
    const auto& [path, plan] = plans[i];
    append_varint(bytes, path.size());
    bytes += path;
    append_varint(bytes, plan.insertions.size());
    append_varint(bytes, plan.added_bytes());
    append_laid_out(bytes, plan);
  }
  auto laid_out = read(std::make_shared<const std::string>(std::move(bytes)), 0);
  if (!laid_out) throw std::logic_error("laid-out tag plans do not read back");
  return laid_out;
}

std::shared_ptr<const LaidOutPlans> LaidOutPlans::read(std::shared_ptr<const std::string> buffer,
                                                       size_t begin) {
  if (buffer == nullptr || begin > buffer->size()) return nullptr;
  auto result = std::make_shared<LaidOutPlans>();
  analysis::ByteReader r(std::string_view(*buffer).substr(begin));
  const size_t files = r.count();
  result->files_.reserve(files);
  for (size_t i = 0; i < files && r.ok(); ++i) {
    LaidOutPlan plan;
    plan.path = r.view(r.u64());
    plan.insertions = r.count();
    plan.text_bytes = r.u64();
    // Checked before multiplying: a count never exceeds the bytes left, so 16 * it cannot wrap.
    plan.data = r.view(16 * uint64_t{plan.insertions}).data();
    r.view(plan.text_bytes);
    if (!r.ok()) return nullptr;
    if (!result->files_.empty() && !(result->files_.back().path < plan.path)) return nullptr;
    if (!well_formed(plan)) return nullptr;
    result->files_.push_back(plan);
  }
  if (!r.ok() || !r.at_end()) return nullptr;
  result->buffer_ = std::move(buffer);
  result->begin_ = begin;
  return result;
}

PlansByPath LaidOutPlans::plans() const {
  PlansByPath plans;
  plans.reserve(files_.size());
  for (const LaidOutPlan& plan : files_) plans.emplace_back(std::string(plan.path), plan.plan());
  return plans;
}

const LaidOutPlan* LaidOutPlans::find(std::string_view path) const {
  auto it = std::lower_bound(
      files_.begin(), files_.end(), path,
      [](const LaidOutPlan& plan, std::string_view key) { return plan.path < key; });
  if (it == files_.end() || it->path != path || it->insertions == 0) return nullptr;
  return &*it;
}

}  // namespace anchorfs::render
