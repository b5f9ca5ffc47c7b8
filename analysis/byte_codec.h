// Bounds-checked varint and length-prefixed string encoding for cached analysis records.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace anchorfs::analysis {

class ByteWriter {
 public:
  ByteWriter() = default;
  // Appends to `into` (cleared first): a caller writing the same record again and again hands
  // back the last one's buffer instead of growing a fresh string.
  explicit ByteWriter(std::string into) : out_(std::move(into)) { out_.clear(); }
  void u64(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  // UINT32_MAX ("none") as 0 and every other value v as v + 1, so absent references stay small.
  void ref(uint32_t v) { u64(v == UINT32_MAX ? 0 : uint64_t{v} + 1); }
  void str(std::string_view s) {
    u64(s.size());
    out_.append(s);
  }
  void raw(std::string_view bytes) { out_.append(bytes); }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

// Every read past the end or of an out-of-range value puts the reader in a failed state that
// yields zeros from then on; callers check ok() once at the end instead of after every field.
class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool at_end() const { return pos_ == in_.size(); }
  size_t position() const { return pos_; }

  uint64_t u64() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= in_.size()) return fail();
      const auto byte = static_cast<unsigned char>(in_[pos_++]);
      v |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return v;
    }
    return fail();
  }
  uint32_t u32() {
    const uint64_t v = u64();
    if (v > UINT32_MAX) return static_cast<uint32_t>(fail());
    return static_cast<uint32_t>(v);
  }
  uint32_t ref() {
    const uint64_t v = u64();
    if (v == 0) return UINT32_MAX;
    if (v - 1 >= UINT32_MAX) return static_cast<uint32_t>(fail());
    return static_cast<uint32_t>(v - 1);
  }
  uint8_t u8() {
    const uint64_t v = u64();
    if (v > 0xff) return static_cast<uint8_t>(fail());
    return static_cast<uint8_t>(v);
  }
  bool boolean() {
    const uint64_t v = u64();
    if (v > 1) return fail() != 0;
    return v == 1;
  }
  // A length, then that many bytes.
  std::string str() { return bytes(u64()); }
  // The next `n` bytes as they are.
  std::string bytes(uint64_t n) { return std::string(view(n)); }
  // The next `n` bytes in place, valid as long as the input; empty (null data) when fewer are left.
  std::string_view view(uint64_t n) {
    if (!ok_ || n > in_.size() - pos_) {
      fail();
      return {};
    }
    const std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  // A count of items that each take at least one byte: bounded by the remaining input, so a
  // garbled count can never make the caller allocate more than the record's size.
  size_t count() {
    const uint64_t n = u64();
    if (!ok_ || n > in_.size() - pos_) return static_cast<size_t>(fail());
    return static_cast<size_t>(n);
  }
  bool expect(std::string_view bytes) {
    if (in_.size() - pos_ < bytes.size() ||
        std::memcmp(in_.data() + pos_, bytes.data(), bytes.size()) != 0) {
      return fail() != 0;
    }
    pos_ += bytes.size();
    return true;
  }

 protected:
  // Puts the reader in its failed state; returns 0 for the caller to hand on.
  uint64_t fail() {
    ok_ = false;
    pos_ = in_.size();
    return 0;
  }

 private:
  std::string_view in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace anchorfs::analysis
