// The dense view's tables: environment accessors, I/O effects, registration decorators.
#pragma once

#include <string>
#include <string_view>

namespace anchorfs::analysis::python {

// Functions taking an environment variable name first: os.getenv, os.environ.get, os.putenv...
// `dotted` is a callee's import-qualified name without call markers.
bool is_env_function(std::string_view dotted);

// os.environ and os.environb: subscripts and `in` tests name a variable.
bool is_env_mapping(std::string_view dotted);

// The IO_DEP label of a call ("file:open", "subprocess:run", "net:urlopen",
// "db:sqlite3.connect"), or "" when the callee is not a known effect. `dotted` is the callee's
// import-qualified name without call markers; `builtin` says the name is bound nowhere in the
// file (so `open` is the builtin).
std::string io_kind(std::string_view dotted, bool builtin);

// IO_DEP labels decided by the method alone, whatever the receiver: Path-like read_text and
// friends ("file:read_text"), cursor.execute ("db:cursor.execute"). `chain` as written.
std::string io_kind_of_method(std::string_view chain);

// Whether a decorator whose callee is `chain` (as written) registers what it decorates: a part
// spelled like register/route/hook/receiver/handler/listen/subscribe/command/task/plugin/
// callback/endpoint/view_config, `connect`, a called `group`, or a called HTTP verb on an
// object (`@app.get("/")`). Property accessors (`@x.setter`) never register.
bool is_registration(std::string_view chain, bool is_call);

}  // namespace anchorfs::analysis::python
