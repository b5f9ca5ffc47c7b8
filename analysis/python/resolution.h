// What the Python front end builds once per analysis and both of its resolution steps read.
#pragma once

#include <vector>

#include "analysis/language.h"
#include "analysis/python/facts.h"
#include "analysis/python/imports.h"
#include "analysis/python/modules.h"

namespace anchorfs::analysis::python {

// The files with their facts seen as Python's, the module index and the import table: one of
// each per analysis, so that the call graph and the dense relations resolve names alike.
class Resolution final : public analysis::ResolutionState {
 public:
  explicit Resolution(const analysis::ResolverInput& input);
  Resolution(const Resolution&) = delete;  // input_, modules_ and imports_ refer to each other
  Resolution& operator=(const Resolution&) = delete;

  const ResolverInput& input() const { return input_; }
  const ImportTable& imports() const { return imports_; }

 private:
  std::vector<ResolverFile> files_;
  ResolverInput input_;
  ModuleIndex modules_;
  ImportTable imports_;
};

}  // namespace anchorfs::analysis::python
