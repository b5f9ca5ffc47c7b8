// The registry of language front ends.
#include "analysis/cfamily/front_end.h"
#include "analysis/go/front_end.h"
#include "analysis/java/front_end.h"
#include "analysis/javascript/front_end.h"
#include "analysis/language.h"
#include "analysis/python/front_end.h"
#include "analysis/rust/front_end.h"

namespace anchorfs::analysis {

const std::vector<std::unique_ptr<LanguageFrontEnd>>& front_ends() {
  static const std::vector<std::unique_ptr<LanguageFrontEnd>> all = [] {
    std::vector<std::unique_ptr<LanguageFrontEnd>> v;
    v.push_back(std::make_unique<python::PythonFrontEnd>());
    v.push_back(std::make_unique<go::GoFrontEnd>());
    v.push_back(std::make_unique<rust::RustFrontEnd>());
    v.push_back(std::make_unique<java::JavaFrontEnd>());
    v.push_back(std::make_unique<javascript::JavaScriptFrontEnd>());
    v.push_back(std::make_unique<cfamily::CFamilyFrontEnd>());
    return v;
  }();
  return all;
}

const LanguageFrontEnd* front_end_named(std::string_view name) {
  for (const auto& front_end : front_ends()) {
    if (front_end->name() == name) return front_end.get();
  }
  return nullptr;
}

}  // namespace anchorfs::analysis
