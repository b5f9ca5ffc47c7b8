// LaidOutPlans: plans laid out and read back are the same plans; a damaged section (any
// truncation, any byte changed) is rejected or reads back as well-formed plans, never out of
// bounds.
#include "render/laid_out_plans.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

namespace anchorfs::render {
namespace {

PlansByPath random_plans(std::mt19937_64& rng, size_t files) {
  PlansByPath plans;
  for (size_t f = 0; f < files; ++f) {
    TagPlan plan;
    uint64_t offset = 0;
    const size_t count = rng() % 6;
    for (size_t k = 0; k < count; ++k) {
      offset += rng() % 3 == 0 ? 0 : rng() % 200;  // two texts at one offset too
      std::string text(rng() % 4 == 0 ? 0 : 1 + rng() % 40, 'a');
      for (char& c : text) c = static_cast<char>(rng() & 0xff);
      plan.insertions.push_back({offset, text});
    }
    plans.emplace_back("dir/f" + std::to_string(f) + ".py", std::move(plan));
  }
  std::sort(plans.begin(), plans.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return plans;
}

// What every accepted section (read from `bytes`) must satisfy for a FileLayout to read it safely.
void expect_well_formed(const LaidOutPlans& plans, std::string_view bytes) {
  for (size_t i = 0; i < plans.size(); ++i) {
    const LaidOutPlan& plan = plans.files()[i];
    if (i > 0) {
      EXPECT_LT(plans.files()[i - 1].path, plan.path);
    }
    ASSERT_GE(plan.data, bytes.data());
    ASSERT_LE(plan.texts() + plan.text_bytes, bytes.data() + bytes.size());
    for (size_t k = 1; k < plan.insertions; ++k) EXPECT_LE(plan.offset(k - 1), plan.offset(k));
    EXPECT_EQ(plan.text_end_before(plan.insertions), plan.text_bytes);
    uint64_t total = 0;
    for (size_t k = 0; k < plan.insertions; ++k) total += plan.text(k).size();
    EXPECT_EQ(total, plan.text_bytes);
  }
}

TEST(LaidOutPlans, RandomPlansReadBackTheSame) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 50; ++round) {
    const PlansByPath plans = random_plans(rng, rng() % 12);
    const auto laid_out = LaidOutPlans::lay_out(plans);
    EXPECT_EQ(laid_out->plans(), plans);
    for (const auto& [path, plan] : plans) {
      const LaidOutPlan* found = laid_out->find(path);
      if (plan.insertions.empty()) {
        EXPECT_EQ(found, nullptr) << path;
      } else {
        ASSERT_NE(found, nullptr) << path;
        EXPECT_EQ(found->plan(), plan);
      }
    }
    // Read back from inside a larger buffer (a record's header before it), as a view record does.
    auto record = std::make_shared<const std::string>("header" + laid_out->bytes());
    const auto again = LaidOutPlans::read(record, 6);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(again->plans(), plans);
    EXPECT_EQ(again->bytes(), laid_out->bytes());
  }
}

// A view record reserves the section's size before writing it: the size must be exact, counts
// and lengths of more than one varint byte included.
TEST(LaidOutPlans, TheSectionsSizeIsKnownBeforeItIsWritten) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 20; ++round) {
    const auto laid_out = LaidOutPlans::lay_out(random_plans(rng, rng() % 12));
    EXPECT_EQ(laid_out->section_bytes(), laid_out->bytes().size());
  }
  PlansByPath many = random_plans(rng, 200);
  TagPlan large;
  for (uint64_t k = 0; k < 300; ++k) large.insertions.push_back({k * 1000, std::string(200, 'x')});
  many.emplace_back("z/" + std::string(150, 'p') + ".py", std::move(large));
  const auto laid_out = LaidOutPlans::lay_out(many);
  EXPECT_EQ(laid_out->section_bytes(), laid_out->bytes().size());
}

TEST(LaidOutPlans, UnsortedOrDuplicatePlansAreRefusedWithTheirPath) {
  PlansByPath unsorted_offsets{{"a.py", TagPlan{{{5, "#"}, {2, "#"}}}}};
  try {
    LaidOutPlans::lay_out(unsorted_offsets);
    FAIL() << "unsorted offsets accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "tag plan for a.py is not sorted by offset");
  }
  PlansByPath twice{{"a.py", TagPlan{{{0, "#"}}}}, {"a.py", TagPlan{{{1, "#"}}}}};
  EXPECT_THROW(LaidOutPlans::lay_out(twice), std::invalid_argument);
  // Paths out of order are sorted, not refused.
  PlansByPath by_hand{{"b.py", TagPlan{{{0, "b"}}}}, {"a.py", TagPlan{{{0, "a"}}}}};
  EXPECT_EQ(LaidOutPlans::lay_out(by_hand)->files().front().path, "a.py");
}

TEST(LaidOutPlans, EveryTruncationIsRejected) {
  std::mt19937_64 rng(11);
  const std::string bytes(LaidOutPlans::lay_out(random_plans(rng, 6))->bytes());
  for (size_t size = 0; size < bytes.size(); ++size) {
    auto cut = std::make_shared<const std::string>(bytes.substr(0, size));
    EXPECT_EQ(LaidOutPlans::read(cut, 0), nullptr) << "accepted a cut at " << size;
  }
  auto longer = std::make_shared<const std::string>(bytes + "x");
  EXPECT_EQ(LaidOutPlans::read(longer, 0), nullptr) << "accepted trailing bytes";
  EXPECT_EQ(LaidOutPlans::read(std::make_shared<const std::string>(bytes), bytes.size() + 1),
            nullptr);
}

TEST(LaidOutPlans, DamagedBytesAreRejectedOrReadAsWellFormedPlans) {
  std::mt19937_64 rng(13);
  const std::string bytes(LaidOutPlans::lay_out(random_plans(rng, 5))->bytes());
  size_t accepted = 0;
  for (size_t at = 0; at < bytes.size(); ++at) {
    for (const int value : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
      std::string damaged = bytes;
      damaged[at] = static_cast<char>(value);
      const auto buffer = std::make_shared<const std::string>(damaged);
      const auto read = LaidOutPlans::read(buffer, 0);
      if (read == nullptr) continue;
      ++accepted;  // a changed text or offset that keeps the order: still safe to serve
      expect_well_formed(*read, *buffer);
    }
  }
  EXPECT_GT(accepted, 0u);
}

TEST(LaidOutPlans, OffsetsOutOfOrderOrTextEndsPastTheTextsAreRejected) {
  const PlansByPath plans{{"a.py", TagPlan{{{1, "xy"}, {4, "z"}}}}};
  const std::string bytes(LaidOutPlans::lay_out(plans)->bytes());
  // Layout: count, path length, path, insertions, text bytes, then offsets at byte 8.
  const size_t offsets = 1 + 1 + 4 + 1 + 1;
  std::string swapped = bytes;
  swapped[offsets] = 9;  // first offset 9 > second offset 4
  EXPECT_EQ(LaidOutPlans::read(std::make_shared<const std::string>(swapped), 0), nullptr);
  std::string long_text = bytes;
  long_text[offsets + 16] = 3;  // first text ends at 3, second at 3: fine ...
  EXPECT_NE(LaidOutPlans::read(std::make_shared<const std::string>(long_text), 0), nullptr);
  long_text[offsets + 24] = 2;  // ... but a second end before the first is not
  EXPECT_EQ(LaidOutPlans::read(std::make_shared<const std::string>(long_text), 0), nullptr);
  std::string past = bytes;
  past[offsets + 24] = 4;  // the last end must be the text byte count
  EXPECT_EQ(LaidOutPlans::read(std::make_shared<const std::string>(past), 0), nullptr);
}

}  // namespace
}  // namespace anchorfs::render
