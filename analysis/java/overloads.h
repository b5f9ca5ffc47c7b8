// Java overload selection by argument types (JLS 15.12.2): static types as far as the repository
// shows them, strict then loose then variable-arity applicability, and the most specific method.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/java/type_index.h"

namespace anchorfs::analysis::java {

// The static type of an expression or a parameter, as far as it is known.
struct StaticType {
  enum class Kind : uint8_t {
    Unknown,    // not evident: nothing can be concluded from it
    Primitive,  // `name` is the keyword
    Null,       // the null literal
    Reference,  // a class, interface or array type
    AnyReference,  // a reference type not evident (a class's type parameter, `int a[]`)
  };
  Kind kind = Kind::Unknown;
  // The keyword of a primitive (also an array's primitive element); a reference type's fully
  // qualified name when known ("java.lang.String"), else its simple name as written with
  // `qualified` false (a library type whose package is not evident).
  std::string name;
  bool qualified = true;
  uint32_t type = kNone;  // a repository type, kNone for a library type
  uint32_t dims = 0;      // array dimensions
  bool variable = false;  // a type variable, standing for its erasure (the rest of the fields)

  bool primitive() const { return kind == Kind::Primitive && dims == 0; }
};

// A yes/no question the repository may not answer.
enum class Answer : uint8_t { No, Yes, Unknown };

// A method or constructor an invocation may reach, with its parameter types.
struct Candidate {
  uint32_t method = kNone;
  std::vector<StaticType> parameters;  // a variadic one's last is its element type
  bool variadic = false;
};

class Overloads {
 public:
  // Built once the index's supertypes are all resolved (TypeIndex::bases of every class): from
  // then on a parameter type resolves the same whenever it is asked, so candidates are kept.
  explicit Overloads(TypeIndex& types)
      : types_(types), made_at_(types.definition_count(), kNone) {}

  // A type as a file writes it at definition `scope` ("int", "String[]", "java.lang.Object",
  // "Outer.Inner", "null"); "" is Unknown.
  StaticType written_type(uint32_t file, uint32_t scope, std::string_view written);

  // The parameters of method or constructor `g` (global id) as candidates see them; made once
  // per method (every call site of an overloaded name asks for all of its methods again).
  const Candidate& candidate(uint32_t g);

  // What JLS 15.12.2 selects among `candidates` (nearest declaring type first; a method and one it
  // overrides share parameter types, and the first is kept) for arguments of these types.
  struct Selection {
    bool decided = false;    // false: an unknown type could change the outcome, or none applies
    uint32_t method = kNone;  // when decided: the method, or kNone when the call is ambiguous
  };
  Selection select(std::span<const Candidate* const> candidates,
                   std::span<const StaticType> arguments);

  // Whether `a` may override `b`: no parameter of known type differs.
  static bool may_override(const Candidate& a, const Candidate& b);

 private:
  Answer subtype(const StaticType& sub, const StaticType& super);
  Answer compatible(const StaticType& argument, const StaticType& parameter, bool loose);
  Answer applicable(const Candidate& c, std::span<const StaticType> arguments, int phase);
  bool more_specific(const Candidate& a, const Candidate& b, size_t arguments, int phase);
  bool is_object(const StaticType& t) const;
  Candidate make_candidate(uint32_t g);

  TypeIndex& types_;
  // The candidates made so far (a deque: those handed out stay where they are), and where each
  // global id's is among them (kNone: not made). Not a Candidate slot per definition: each
  // thread's resolver has its own, and 48 bytes for each of a repository's definitions were
  // megabytes of fresh, zeroed pages per thread for the few thousand methods asked for.
  std::deque<Candidate> made_;
  std::vector<uint32_t> made_at_;
};

}  // namespace anchorfs::analysis::java
