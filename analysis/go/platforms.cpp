// Build constraints as platform sets: file-name suffixes and a three-valued evaluation of the
// //go:build expression per platform.
#include "analysis/go/platforms.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <string>
#include <vector>

namespace anchorfs::analysis::go {
namespace {

struct Platform {
  std::string_view os;
  std::string_view arch;
};

// `go tool dist list` of Go 1.19.
constexpr std::array<Platform, 46> kPlatforms = {{
    {"aix", "ppc64"},       {"android", "386"},     {"android", "amd64"},  {"android", "arm"},
    {"android", "arm64"},   {"darwin", "amd64"},    {"darwin", "arm64"},   {"dragonfly", "amd64"},
    {"freebsd", "386"},     {"freebsd", "amd64"},   {"freebsd", "arm"},    {"freebsd", "arm64"},
    {"illumos", "amd64"},   {"ios", "amd64"},       {"ios", "arm64"},      {"js", "wasm"},
    {"linux", "386"},       {"linux", "amd64"},     {"linux", "arm"},      {"linux", "arm64"},
    {"linux", "loong64"},   {"linux", "mips"},      {"linux", "mips64"},   {"linux", "mips64le"},
    {"linux", "mipsle"},    {"linux", "ppc64"},     {"linux", "ppc64le"},  {"linux", "riscv64"},
    {"linux", "s390x"},     {"netbsd", "386"},      {"netbsd", "amd64"},   {"netbsd", "arm"},
    {"netbsd", "arm64"},    {"openbsd", "386"},     {"openbsd", "amd64"},  {"openbsd", "arm"},
    {"openbsd", "arm64"},   {"openbsd", "mips64"},  {"plan9", "386"},      {"plan9", "amd64"},
    {"plan9", "arm"},       {"solaris", "amd64"},   {"windows", "386"},    {"windows", "amd64"},
    {"windows", "arm"},     {"windows", "arm64"},
}};
static_assert(kPlatforms.size() <= 64);

constexpr PlatformSet kAll = (PlatformSet{1} << kPlatforms.size()) - 1;

// go/build's lists of known GOOS and GOARCH values (file-name suffixes match only these).
constexpr std::string_view kKnownOs[] = {"aix",   "android", "darwin",  "dragonfly", "freebsd",
                                         "hurd",  "illumos", "ios",     "js",        "linux",
                                         "nacl",  "netbsd",  "openbsd", "plan9",     "solaris",
                                         "windows", "zos"};
constexpr std::string_view kKnownArch[] = {
    "386",      "amd64",    "amd64p32",    "arm",   "armbe",   "arm64",  "arm64be", "loong64",
    "mips",     "mipsle",   "mips64",      "mips64le", "mips64p32", "mips64p32le", "ppc",
    "ppc64",    "ppc64le",  "riscv",       "riscv64", "s390",  "s390x",  "sparc",   "sparc64",
    "wasm"};
constexpr std::string_view kUnix[] = {"aix",     "android", "darwin", "dragonfly", "freebsd", "hurd",
                                      "illumos", "ios",     "linux",  "netbsd",    "openbsd",
                                      "solaris"};

template <size_t N>
bool in(const std::string_view (&list)[N], std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

// Whether `tag` holds on a platform, as go/build matches tags (android implies linux, illumos
// solaris, ios darwin; unix every Unix).
bool holds(std::string_view tag, const Platform& p) {
  if (tag == p.os || tag == p.arch) return true;
  if (tag == "linux" && p.os == "android") return true;
  if (tag == "solaris" && p.os == "illumos") return true;
  if (tag == "darwin" && p.os == "ios") return true;
  return tag == "unix" && in(kUnix, p.os);
}

bool names_platform(std::string_view tag) {
  return tag == "unix" || in(kKnownOs, tag) || in(kKnownArch, tag);
}

PlatformSet matching(std::string_view tag) {
  PlatformSet set = 0;
  for (size_t i = 0; i < kPlatforms.size(); ++i) {
    if (holds(tag, kPlatforms[i])) set |= PlatformSet{1} << i;
  }
  return set;
}

// Per platform, whether an expression may be true (`possible`) and may be false (`refutable`):
// tags naming no platform are both.
struct Value {
  PlatformSet possible = kAll;
  PlatformSet refutable = kAll;
};

// A recursive-descent reader of `||`, `&&`, `!`, parentheses and tags. Malformed text gives
// "any platform" (the constraint is ignored rather than trusted).
class Condition {
 public:
  // `tags` are decided: tag i is true when bit i of `assignment` is set.
  explicit Condition(std::string_view text, const std::vector<std::string>* tags = nullptr,
                     size_t assignment = 0)
      : text_(text), tags_(tags), assignment_(assignment) {}

  // The tags of the expression that name no platform, in order of appearance (nothing when it
  // is malformed).
  std::vector<std::string_view> other_tags() {
    tags_seen_ = &others_;
    disjunction(0);
    skip_space();
    if (!ok_ || pos_ != text_.size()) others_.clear();
    return others_;
  }

  PlatformSet platforms() {
    const Value v = disjunction(0);
    skip_space();
    return ok_ && pos_ == text_.size() ? v.possible : kAll;
  }

 private:
  static constexpr int kMaxDepth = 64;

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  bool eat(std::string_view token) {
    skip_space();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }

  Value disjunction(int depth) {
    Value v = conjunction(depth);
    while (ok_ && eat("||")) {
      const Value w = conjunction(depth);
      v = {v.possible | w.possible, v.refutable & w.refutable};
    }
    return v;
  }
  Value conjunction(int depth) {
    Value v = unary(depth);
    while (ok_ && eat("&&")) {
      const Value w = unary(depth);
      v = {v.possible & w.possible, v.refutable | w.refutable};
    }
    return v;
  }
  Value unary(int depth) {
    if (depth > kMaxDepth) {
      ok_ = false;
      return {};
    }
    if (eat("!")) {
      const Value v = unary(depth + 1);
      return {v.refutable, v.possible};
    }
    if (eat("(")) {
      const Value v = disjunction(depth + 1);
      if (!eat(")")) ok_ = false;
      return v;
    }
    skip_space();
    const size_t begin = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                   text_[pos_] == '_' || text_[pos_] == '.')) {
      ++pos_;
    }
    if (pos_ == begin) {
      ok_ = false;
      return {};
    }
    const std::string_view tag = text_.substr(begin, pos_ - begin);
    if (!names_platform(tag)) {
      if (tags_seen_ != nullptr) tags_seen_->push_back(tag);
      if (tags_ != nullptr) {
        const auto it = std::find(tags_->begin(), tags_->end(), tag);
        if (it != tags_->end()) {
          const bool value = (assignment_ >> (it - tags_->begin())) & 1;
          return value ? Value{kAll, 0} : Value{0, kAll};
        }
      }
      return {};
    }
    const PlatformSet set = matching(tag);
    return {set, kAll & ~set};
  }

  std::string_view text_;
  const std::vector<std::string>* tags_ = nullptr;
  size_t assignment_ = 0;
  std::vector<std::string_view>* tags_seen_ = nullptr;
  std::vector<std::string_view> others_;
  size_t pos_ = 0;
  bool ok_ = true;
};

// The platforms a file name allows: name_GOOS_GOARCH, name_GOOS or name_GOARCH (before ".go"
// and a "_test" suffix), as go/build reads them.
PlatformSet platforms_of_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (name.ends_with(".go")) name.remove_suffix(3);
  if (name.ends_with("_test")) name.remove_suffix(5);
  std::vector<std::string_view> parts;
  size_t begin = 0;
  for (size_t i = 0; i <= name.size(); ++i) {
    if (i == name.size() || name[i] == '_') {
      parts.push_back(name.substr(begin, i - begin));
      begin = i + 1;
    }
  }
  // The first part is the file's own name, never a constraint ("linux.go" is unconstrained).
  const size_t n = parts.size();
  if (n >= 3 && in(kKnownOs, parts[n - 2]) && in(kKnownArch, parts[n - 1])) {
    return matching(parts[n - 2]) & matching(parts[n - 1]);
  }
  if (n >= 2 && (in(kKnownOs, parts[n - 1]) || in(kKnownArch, parts[n - 1]))) {
    return matching(parts[n - 1]);
  }
  return kAll;
}

}  // namespace

PlatformSet platforms_of(std::string_view path, std::string_view condition) {
  PlatformSet set = platforms_of_name(path);
  if (!condition.empty()) set &= Condition(condition).platforms();
  return set;
}

std::vector<std::string> decided_tags(const std::vector<std::string_view>& conditions) {
  std::map<std::string_view, size_t> uses;
  for (std::string_view condition : conditions) {
    if (condition.empty()) continue;
    std::vector<std::string_view> tags = Condition(condition).other_tags();
    std::sort(tags.begin(), tags.end());
    tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
    for (std::string_view tag : tags) ++uses[tag];
  }
  std::vector<std::pair<size_t, std::string_view>> ranked;
  for (const auto& [tag, count] : uses) ranked.emplace_back(count, tag);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < ranked.size() && i < kMaxDecidedTags; ++i) {
    out.emplace_back(ranked[i].second);
  }
  return out;
}

BuildSet builds_of(std::string_view path, std::string_view condition,
                   const std::vector<std::string>& tags) {
  const PlatformSet by_name = platforms_of_name(path);
  BuildSet set(size_t{1} << std::min(tags.size(), kMaxDecidedTags), by_name);
  if (condition.empty()) return set;
  for (size_t a = 0; a < set.size(); ++a) set[a] &= Condition(condition, &tags, a).platforms();
  return set;
}

bool built_together(const BuildSet& a, const BuildSet& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if ((a[i] & b[i]) != 0) return true;
  }
  return false;
}

}  // namespace anchorfs::analysis::go
