// The registry of language front ends.
#include "analysis/language.h"
#include "analysis/python/front_end.h"

namespace anchorfs::analysis {

const std::vector<std::unique_ptr<LanguageFrontEnd>>& front_ends() {
  static const std::vector<std::unique_ptr<LanguageFrontEnd>> all = [] {
    std::vector<std::unique_ptr<LanguageFrontEnd>> v;
    v.push_back(std::make_unique<python::PythonFrontEnd>());
    return v;
  }();
  return all;
}

}  // namespace anchorfs::analysis
