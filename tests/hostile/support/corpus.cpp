// Generating hostile-corpus categories through make_corpus.py and reading their manifests.
#include "tests/hostile/support/corpus.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "tests/hostile/support/mount_session.h"
#include "tests/hostile/support/process.h"

namespace anchorfs::testing {
namespace {

std::string from_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

}  // namespace

std::string corpus_mode() {
  const char* mode = std::getenv("ANCHORFS_HOSTILE_MODE");
  return mode != nullptr && std::string(mode) == "long" ? "long" : "ci";
}

Category generate_category(const std::string& name, const std::string& parent) {
  const RunResult result =
      run({"python3", ANCHORFS_MAKE_CORPUS, parent, "--mode", corpus_mode(), "--only", name},
          std::chrono::minutes(5));
  if (!result.status.ok()) {
    throw std::runtime_error("make_corpus.py " + name + ": " + result.status.describe() + "\n" +
                             result.err);
  }
  Category category;
  category.name = name;
  category.dir = parent + "/" + name;
  category.repo = category.dir + "/repo";
  category.outside = category.dir + "/outside";
  std::ifstream in(category.dir + "/manifest.json");
  const nlohmann::json manifest = nlohmann::json::parse(in);
  category.description = manifest.at("description").get<std::string>();
  for (const auto& file : manifest.at("files")) {
    category.expect[from_hex(file.at("path_hex").get<std::string>())].insert(
        file.at("expect").get<std::string>());
  }
  for (const auto& note : manifest.at("notes")) category.notes.push_back(note.get<std::string>());
  return category;
}

std::vector<std::string> all_categories() {
  const RunResult result =
      run({"python3", ANCHORFS_MAKE_CORPUS, "--list"}, std::chrono::seconds(60));
  std::vector<std::string> names;
  std::istringstream lines(result.out);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) names.push_back(line);
  }
  return names;
}

}  // namespace anchorfs::testing
