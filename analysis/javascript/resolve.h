// Whole-repository resolution of JavaScript/TypeScript facts: containment, imports, inheritance
// and calls among the front end's files.
#pragma once

#include <vector>

#include "analysis/graph.h"
#include "analysis/javascript/project_config.h"
#include "analysis/language.h"

namespace anchorfs::analysis::javascript {

// Every file's facts must be code::CodeFacts made by this front end.
void resolve(const ResolverInput& input, const ProjectConfig& config, std::vector<Edge>& edges);

}  // namespace anchorfs::analysis::javascript
