// Entity ids of the resolved graph.
#include "analysis/graph.h"

namespace anchorfs::analysis {

std::string_view relation_name(Relation relation) {
  switch (relation) {
    case Relation::Contains:
      return "contains";
    case Relation::Imports:
      return "imports";
    case Relation::Calls:
      return "calls";
    case Relation::Inherits:
      return "inherits";
    case Relation::ConfigUsage:
      return "config_usage";
    case Relation::EnvVar:
      return "env_var";
    case Relation::ConstRef:
      return "const_ref";
    case Relation::IoDep:
      return "io_dep";
    case Relation::DataDep:
      return "data_dep";
    case Relation::TestRef:
      return "test_ref";
    case Relation::Registers:
      return "registers";
  }
  return "unknown";
}

std::string Graph::id(EntityIndex e) const {
  const Entity& entity = entities[e];
  if (entity.kind == EntityKind::File) return entity.name;
  return entities[entity.file].name + ":" + entity.name;
}

}  // namespace anchorfs::analysis
