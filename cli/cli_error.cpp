// errno formatting for CLI error messages.
#include "cli/cli_error.h"

#include <cstring>

namespace anchorfs::cli {

std::string errno_text(int error) {
  std::string text = std::strerror(error);
  // strerror capitalises; our one-line errors read better in lower case ("no such file ...").
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z' && (text.size() < 2 || text[1] > 'Z')) {
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  }
  return text;
}

}  // namespace anchorfs::cli
