// Entity ids of the resolved graph.
#include "analysis/graph.h"

namespace anchorfs::analysis {

std::string Graph::id(EntityIndex e) const {
  const Entity& entity = entities[e];
  if (entity.kind == EntityKind::File) return entity.name;
  return entities[entity.file].name + ":" + entity.name;
}

}  // namespace anchorfs::analysis
