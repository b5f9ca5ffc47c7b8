// Trace parsing: header, process, file and event lines into one Run.
#include "trace/trace_file.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace anchorfs::trace {

using nlohmann::json;

namespace {

void read_part(const std::string& path, Run& run) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read trace " + path);
  std::string text;
  size_t line_number = 0;
  bool header = false;
  while (std::getline(in, text)) {
    ++line_number;
    if (text.empty()) continue;
    json line;
    try {
      line = json::parse(text);
    } catch (const json::exception&) {
      // The last line of a trace whose mount is still running may be cut short.
      if (in.peek() == std::char_traits<char>::eof()) break;
      throw std::runtime_error(path + ":" + std::to_string(line_number) + ": not JSON");
    }
    const std::string type = line.value("type", "");
    if (type == "header") {
      if (line.value("format", "") != "anchorfs-trace") {
        throw std::runtime_error(path + ": not an anchorfs trace");
      }
      header = true;
      run.root = line.value("root", "");
      run.view = line.value("view", "");
      run.style = line.value("style", "");
      run.options.clear();
      if (auto options = line.find("options"); options != line.end() && options->is_object()) {
        for (const auto& [name, value] : options->items()) {
          run.options.emplace_back(name,
                                   value.is_string() ? value.get<std::string>() : value.dump());
        }
      }
    } else if (!header) {
      throw std::runtime_error(path + ": not an anchorfs trace (no header line)");
    } else if (type == "process") {
      ProcessRecord process;
      process.pid = line.value("pid", 0);
      process.ppid = line.value("ppid", 0);
      process.sid = line.value("sid", 0);
      process.comm = line.value("comm", "");
      process.cmdline = line.value("cmdline", "");
      for (const json& ancestor : line.value("chain", json::array())) {
        process.chain.emplace_back(ancestor.at(0).get<pid_t>(), ancestor.at(1).get<std::string>());
      }
      run.processes[process.pid] = std::move(process);
    } else if (type == "file") {
      FileRecord file;
      file.path = line.value("path", "");
      file.size = line.value("size", uint64_t{0});
      file.original_size = line.value("original_size", uint64_t{0});
      file.mtime_ns = line.value("mtime_ns", int64_t{0});
      file.mapped = line.value("mapped", false);
      for (const json& insertion : line.value("insertions", json::array())) {
        file.insertions.push_back({insertion.at(0).get<uint64_t>(), insertion.at(1).get<uint64_t>(),
                                   insertion.at(2).get<uint64_t>()});
      }
      for (const json& span : line.value("entities", json::array())) {
        file.entities.push_back({span.at(0).get<uint64_t>(), span.at(1).get<uint64_t>(),
                                 span.at(2).get<std::string>(), span.at(3).get<std::string>()});
      }
      run.files[line.value("ino", uint64_t{0})] = std::move(file);
    } else if (type == "dropped") {
      run.dropped = std::max(run.dropped, line.value("count", uint64_t{0}));
    } else if (type == "end") {
      run.dropped = std::max(run.dropped, line.value("dropped", uint64_t{0}));
      run.complete = true;
    } else if (line.contains("op")) {
      Event event;
      event.t = line.value("t", 0.0);
      event.op = line.value("op", "");
      event.pid = line.value("pid", 0);
      event.ino = line.value("ino", uint64_t{0});
      event.path = line.value("path", "");
      event.offset = line.value("off", uint64_t{0});
      event.length = line.value("len", uint64_t{0});
      event.found = line.value("found", false);
      for (const json& tag : line.value("tags", json::array())) {
        event.tags.push_back(tag.get<std::string>());
      }
      run.events.push_back(std::move(event));
    }
  }
  if (!header) throw std::runtime_error(path + ": empty or not an anchorfs trace");
}

}  // namespace

Run read_run(const std::string& path) {
  Run run;
  run.name = path;
  const std::string older = path + ".1";
  if (std::filesystem::exists(older)) {
    read_part(older, run);
    run.complete = false;
  }
  read_part(path, run);
  return run;
}

}  // namespace anchorfs::trace
