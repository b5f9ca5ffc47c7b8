// Fixture of tests/conventions/language_neutral_test.py: a "render" file whose literals name
// languages, each of which scripts/check_language_neutral.py must report (this comment's python,
// ".py" and "#" must not be).
const char* kMarker = "# ";
const char* kInputs = "pyproject.toml";
bool is_module(const std::string& p) {
  return p.ends_with(".py");
}
const char* kRaw = R"x(the Rust way)x";
const char kHash = '#';
const char* kFine = "a view of a repository";  // no finding
