// Whole-tree checks shared by the mount tests.
#include "checks.h"

#include <sys/stat.h>

#include "support.h"

namespace anchorfs::itest {
namespace {

const char* const kAstScript = R"(
import ast, sys
args = sys.argv[1:]
compared, problems = 0, []
for original, view in zip(args[0::2], args[1::2]):
    with open(original, "rb") as f:
        source = f.read()
    try:
        expected = ast.dump(ast.parse(source))
    except (SyntaxError, ValueError):
        continue
    with open(view, "rb") as f:
        tagged = f.read()
    try:
        actual = ast.dump(ast.parse(tagged))
    except (SyntaxError, ValueError) as error:
        problems.append(f"{view}: does not parse: {error}")
        continue
    compared += 1
    if actual != expected:
        problems.append(f"{view}: ast.dump differs from {original}")
print(compared)
for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
)";

}  // namespace

std::vector<std::string> regular_files(const std::string& repo) {
  std::vector<std::string> files;
  for (const TreeItem& item : list_tree(repo)) {
    if (S_ISREG(item.mode)) files.push_back(item.path);
  }
  return files;
}

std::string ast_mismatches(const std::string& repo, const std::string& mount,
                           const std::vector<std::string>& files, size_t& compared) {
  std::vector<std::string> argv{"python3", "-c", kAstScript};
  for (const std::string& file : files) {
    if (file.size() < 3 || file.compare(file.size() - 3, 3, ".py") != 0) continue;
    argv.push_back(repo + "/" + file);
    argv.push_back(mount + "/" + file);
  }
  const ProcessResult result = run(argv);
  compared = std::stoul("0" + result.out.substr(0, result.out.find('\n')));
  if (result.exit_code == 0) return {};
  return result.out + result.err;
}

}  // namespace anchorfs::itest
