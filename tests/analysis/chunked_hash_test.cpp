// ChunkedXxh128 hashes what it is fed exactly as XXH3-128 hashes the bytes back to back.
#include "analysis/chunked_hash.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace anchorfs::analysis {
namespace {

TEST(ChunkedHashTest, PiecesOfAnySizeHashAsTheirConcatenation) {
  std::mt19937 random(7);
  for (int round = 0; round < 40; ++round) {
    ChunkedXxh128 chunked;
    std::string all;
    const int pieces = static_cast<int>(random() % 3000);
    for (int p = 0; p < pieces; ++p) {
      // Mostly the small fields of a key, sometimes a piece near or above a chunk (16 KiB).
      const size_t size = random() % 50 == 0 ? random() % 40000 : random() % 64;
      std::string piece(size, '\0');
      for (char& c : piece) c = static_cast<char>(random());
      chunked.update(piece.data(), piece.size());
      all += piece;
    }
    const XXH128_hash_t whole = XXH3_128bits(all.data(), all.size());
    EXPECT_EQ(chunked.digest(), std::make_pair(whole.low64, whole.high64)) << "round " << round;
  }
}

}  // namespace
}  // namespace anchorfs::analysis
