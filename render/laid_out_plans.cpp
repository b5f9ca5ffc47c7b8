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

// Bytes append_varint writes for `v`.
size_t varint_bytes(uint64_t v) {
  size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
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

LaidOutPlans::LaidOutPlans()
    : buffers_(std::make_shared<const Buffers>(Buffers{std::make_shared<const std::string>(1, '\0')})) {}

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

std::shared_ptr<const LaidOutPlans> LaidOutPlans::adopt(Buffers buffers,
                                                        std::vector<LaidOutPlan> files) {
  for (size_t i = 0; i < files.size(); ++i) {
    if ((i > 0 && !(files[i - 1].path < files[i].path)) || !well_formed(files[i])) {
      throw std::logic_error("adopted tag plans are not sorted by path or not well formed");
    }
  }
  auto result = std::make_shared<LaidOutPlans>();
  result->buffers_ = std::make_shared<const Buffers>(std::move(buffers));
  result->files_ = std::move(files);
  return result;
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
  result->buffers_ = std::make_shared<const Buffers>(Buffers{std::move(buffer)});
  return result;
}

namespace {

// Bytes of one file's entry in a section.
uint64_t entry_bytes(std::string_view path, size_t insertions, uint64_t text_bytes) {
  return 30 + path.size() + 16 * insertions + text_bytes;
}

void append_entry(std::string& out, std::string_view path, size_t insertions,
                  uint64_t text_bytes) {
  append_varint(out, path.size());
  out += path;
  append_varint(out, insertions);
  append_varint(out, text_bytes);
}

}  // namespace

std::shared_ptr<const LaidOutPlans> LaidOutPlans::combine(const LaidOutPlans& base,
                                                          const std::vector<Part>& parts) {
  uint64_t live = 0;
  uint64_t fresh = 0;
  for (const Part& part : parts) {
    const uint64_t bytes =
        part.fresh != nullptr
            ? entry_bytes(part.path, part.fresh->insertions.size(), part.fresh->added_bytes())
            : entry_bytes(part.path, part.kept->insertions, part.kept->text_bytes);
    live += bytes;
    if (part.fresh != nullptr) fresh += bytes;
  }
  uint64_t held = fresh;
  for (const auto& buffer : *base.buffers_) held += buffer->size();
  // Kept plans of earlier sets pin their whole buffers: lay everything out again once those hold
  // more than what is served (the memory a long-lived mount keeps stays within twice its view).
  const bool compact = held > 2 * live + (1 << 20);
  std::string bytes;
  bytes.reserve(compact ? live : fresh);
  // Entries of fresh (or, compacting, every) plan: where each starts in `bytes`.
  std::vector<size_t> at(parts.size(), SIZE_MAX);
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& part = parts[i];
    if (part.fresh != nullptr) {
      at[i] = bytes.size();
      append_entry(bytes, part.path, part.fresh->insertions.size(), part.fresh->added_bytes());
      append_laid_out(bytes, *part.fresh);
    } else if (compact) {
      at[i] = bytes.size();
      append_entry(bytes, part.path, part.kept->insertions, part.kept->text_bytes);
      bytes.append(part.kept->data, 16 * part.kept->insertions + part.kept->text_bytes);
    }
  }
  auto buffer = std::make_shared<const std::string>(std::move(bytes));
  auto result = std::make_shared<LaidOutPlans>();
  Buffers buffers{buffer};
  if (!compact) buffers.insert(buffers.end(), base.buffers_->begin(), base.buffers_->end());
  result->buffers_ = std::make_shared<const Buffers>(std::move(buffers));
  result->files_.reserve(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    LaidOutPlan plan;
    if (at[i] == SIZE_MAX) {
      plan = *parts[i].kept;
    } else {
      analysis::ByteReader r(std::string_view(*buffer).substr(at[i]));
      plan.path = r.view(r.u64());
      plan.insertions = r.count();
      plan.text_bytes = r.u64();
      plan.data = r.view(16 * uint64_t{plan.insertions}).data();
      if (!r.ok()) throw std::logic_error("combined tag plans do not read back");
    }
    if (!result->files_.empty() && !(result->files_.back().path < plan.path)) {
      throw std::invalid_argument("combined tag plans are not sorted by path");
    }
    result->files_.push_back(plan);
  }
  return result;
}

void LaidOutPlans::append_bytes(std::string& out) const {
  append_varint(out, files_.size());
  for (const LaidOutPlan& plan : files_) {
    append_entry(out, plan.path, plan.insertions, plan.text_bytes);
    out.append(plan.data, 16 * plan.insertions + plan.text_bytes);
  }
}

size_t LaidOutPlans::section_bytes() const {
  size_t bytes = varint_bytes(files_.size());
  for (const LaidOutPlan& plan : files_) {
    bytes += varint_bytes(plan.path.size()) + plan.path.size() + varint_bytes(plan.insertions) +
             varint_bytes(plan.text_bytes) + 16 * plan.insertions + plan.text_bytes;
  }
  return bytes;
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
