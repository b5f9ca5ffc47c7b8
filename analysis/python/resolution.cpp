// The Python front end's per-analysis resolution state.
#include "analysis/python/resolution.h"

namespace anchorfs::analysis::python {
namespace {

// The core's files with every file's facts seen as what this front end made them: Python facts.
std::vector<ResolverFile> python_files(const analysis::ResolverInput& input) {
  std::vector<ResolverFile> files;
  files.reserve(input.files.size());
  for (const analysis::ResolverFile& file : input.files) {
    files.push_back({file.path, &static_cast<const FileFacts&>(*file.facts), file.entity});
  }
  return files;
}

}  // namespace

Resolution::Resolution(const analysis::ResolverInput& input)
    : files_(python_files(input)),
      input_{input.root, files_},
      modules_(input_),
      imports_(input_, modules_) {}

}  // namespace anchorfs::analysis::python
