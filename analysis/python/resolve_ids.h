// The resolver's id kinds, one distinct type each, and the containers indexed by them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace anchorfs::analysis::python {

// Each kind is an enum class without enumerators over uint32_t: it compiles to the same integer,
// compares and hashes like one, but converts to and from numbers only explicitly, so passing a
// variable where a value (or a scope where a name) is meant fails to compile. Local ids inside
// one file's facts stay plain numbers: the resolver turns them into these global ids.
enum class FileId : uint32_t {};    // index into ResolverInput::files
enum class ScopeId : uint32_t {};   // the files' scopes numbered one after another (a class is one)
enum class NameId : uint32_t {};    // an interned string: name, attribute, literal key or index
enum class SiteId : uint32_t {};    // the files' expressions numbered one after another, then the
                                    // container sites no literal creates (see Resolver::items_site)
enum class StmtId : uint32_t {};    // the files' statements numbered one after another
enum class VarId : uint32_t {};     // a variable: a set of values the fixed point grows
enum class ValueId : uint32_t {};   // an abstract value (see resolve_values.h)
enum class ModuleId : uint32_t {};  // index into ModuleIndex::modules()

template <class Id>
concept ResolverId = std::is_enum_v<Id> && std::is_same_v<std::underlying_type_t<Id>, uint32_t>;

// The number behind an id (an entity index passes through, so packing helpers take both).
template <class Id>
requires ResolverId<Id> || std::is_same_v<Id, uint32_t>
constexpr uint32_t raw(Id id) {
  return static_cast<uint32_t>(id);
}

// "No such id" of each kind; the same all-ones number as the facts' kNone.
template <ResolverId Id>
inline constexpr Id kNoId = static_cast<Id>(UINT32_MAX);
inline constexpr FileId kNoFile = kNoId<FileId>;
inline constexpr ScopeId kNoScope = kNoId<ScopeId>;
inline constexpr NameId kNoName = kNoId<NameId>;
inline constexpr SiteId kNoSite = kNoId<SiteId>;
inline constexpr VarId kNoVar = kNoId<VarId>;
inline constexpr ValueId kNoValue = kNoId<ValueId>;

// Two ids packed into one 64-bit key (first in the high half), for the hash tables.
template <class A, class B>
constexpr uint64_t pack(A a, B b) {
  return (uint64_t{raw(a)} << 32) | raw(b);
}

// The ids 0 .. n-1 of one kind, for range-for loops.
template <ResolverId Id>
class IdRange {
 public:
  class iterator {
   public:
    explicit iterator(uint32_t n) : n_(n) {}
    Id operator*() const { return static_cast<Id>(n_); }
    iterator& operator++() {
      ++n_;
      return *this;
    }
    bool operator!=(const iterator& other) const { return n_ != other.n_; }

   private:
    uint32_t n_;
  };
  explicit IdRange(size_t size) : size_(static_cast<uint32_t>(size)) {}
  iterator begin() const { return iterator(0); }
  iterator end() const { return iterator(size_); }

 private:
  uint32_t size_;
};

// A std::vector indexed by one id kind only.
template <ResolverId Id, class T>
class IdVector {
 public:
  IdVector() = default;
  IdVector(size_t n, const T& v) : items_(n, v) {}

  T& operator[](Id id) { return items_[raw(id)]; }
  const T& operator[](Id id) const { return items_[raw(id)]; }
  size_t size() const { return items_.size(); }
  size_t capacity() const { return items_.capacity(); }
  IdRange<Id> ids() const { return IdRange<Id>(items_.size()); }
  // The id the next push_back gets.
  Id next_id() const { return static_cast<Id>(items_.size()); }

  void assign(size_t n, const T& v) { items_.assign(n, v); }
  void resize(size_t n) { items_.resize(n); }
  void resize(size_t n, const T& v) { items_.resize(n, v); }
  void push_back(const T& v) { items_.push_back(v); }
  // Frees the storage.
  void release() { std::vector<T>().swap(items_); }

  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  std::vector<T> items_;
};

}  // namespace anchorfs::analysis::python
