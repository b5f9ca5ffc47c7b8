// The dense view's tables of environment accessors, I/O effects and registration decorators.
#include "analysis/python/dense_rules.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "analysis/python/dense_names.h"

namespace anchorfs::analysis::python {
namespace {

template <size_t N>
bool one_of(std::string_view s, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

constexpr std::array<std::string_view, 10> kEnvFunctions = {"os.getenv",
                                                            "os.getenvb",
                                                            "os.putenv",
                                                            "os.unsetenv",
                                                            "os.environ.get",
                                                            "os.environ.pop",
                                                            "os.environ.setdefault",
                                                            "os.environb.get",
                                                            "os.environb.pop",
                                                            "os.environb.setdefault"};

// Calls whose callee alone is the effect, by import-qualified name.
struct Effect {
  std::string_view dotted;
  std::string_view label;
};
constexpr std::array<Effect, 44> kEffects = {{
    {"io.open", "file:open"},
    {"codecs.open", "file:open"},
    {"os.open", "file:os.open"},
    {"os.fdopen", "file:os.fdopen"},
    {"gzip.open", "file:gzip.open"},
    {"bz2.open", "file:bz2.open"},
    {"lzma.open", "file:lzma.open"},
    {"tarfile.open", "file:tarfile.open"},
    {"zipfile.ZipFile", "file:zipfile.ZipFile"},
    {"shelve.open", "file:shelve.open"},
    {"dbm.open", "file:dbm.open"},
    {"urllib.request.urlopen", "net:urlopen"},
    {"urllib.request.urlretrieve", "net:urlretrieve"},
    {"urllib2.urlopen", "net:urlopen"},
    {"http.client.HTTPConnection", "net:http.client.HTTPConnection"},
    {"http.client.HTTPSConnection", "net:http.client.HTTPSConnection"},
    {"ftplib.FTP", "net:ftplib.FTP"},
    {"ftplib.FTP_TLS", "net:ftplib.FTP_TLS"},
    {"smtplib.SMTP", "net:smtplib.SMTP"},
    {"smtplib.SMTP_SSL", "net:smtplib.SMTP_SSL"},
    {"poplib.POP3", "net:poplib.POP3"},
    {"imaplib.IMAP4", "net:imaplib.IMAP4"},
    {"imaplib.IMAP4_SSL", "net:imaplib.IMAP4_SSL"},
    {"telnetlib.Telnet", "net:telnetlib.Telnet"},
    {"xmlrpc.client.ServerProxy", "net:xmlrpc.client.ServerProxy"},
    {"urllib3.PoolManager", "net:urllib3.PoolManager"},
    {"aiohttp.ClientSession", "net:aiohttp.ClientSession"},
    {"aiohttp.request", "net:aiohttp.request"},
    {"websockets.connect", "net:websockets.connect"},
    {"paramiko.SSHClient", "net:paramiko.SSHClient"},
    {"boto3.client", "net:boto3.client"},
    {"boto3.resource", "net:boto3.resource"},
    {"sqlite3.connect", "db:sqlite3.connect"},
    {"psycopg2.connect", "db:psycopg2.connect"},
    {"psycopg.connect", "db:psycopg.connect"},
    {"pymysql.connect", "db:pymysql.connect"},
    {"MySQLdb.connect", "db:MySQLdb.connect"},
    {"mysql.connector.connect", "db:mysql.connector.connect"},
    {"cx_Oracle.connect", "db:cx_Oracle.connect"},
    {"sqlalchemy.create_engine", "db:sqlalchemy.create_engine"},
    {"pymongo.MongoClient", "db:pymongo.MongoClient"},
    {"redis.Redis", "db:redis.Redis"},
    {"asyncio.create_subprocess_exec", "subprocess:asyncio.create_subprocess_exec"},
    {"asyncio.create_subprocess_shell", "subprocess:asyncio.create_subprocess_shell"},
}};

constexpr std::array<std::string_view, 7> kSubprocess = {
    "run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput"};
constexpr std::array<std::string_view, 19> kOsFile = {
    "remove",  "unlink",     "rename",   "renames", "replace", "mkdir", "makedirs",
    "rmdir",   "removedirs", "listdir",  "scandir", "walk",    "chmod", "chown",
    "symlink", "link",       "truncate", "utime",   "mkfifo"};
constexpr std::array<std::string_view, 5> kOsProcess = {"system", "popen", "startfile",
                                                        "posix_spawn", "posix_spawnp"};
constexpr std::array<std::string_view, 11> kShutil = {
    "copy",   "copy2", "copyfile",     "copytree",       "copymode", "copystat",
    "rmtree", "move",  "make_archive", "unpack_archive", "chown"};
constexpr std::array<std::string_view, 6> kTempfile = {"mkstemp",
                                                       "mkdtemp",
                                                       "NamedTemporaryFile",
                                                       "TemporaryFile",
                                                       "TemporaryDirectory",
                                                       "SpooledTemporaryFile"};
constexpr std::array<std::string_view, 9> kSocket = {
    "socket",      "create_connection", "create_server",    "socketpair",   "fromfd",
    "getaddrinfo", "gethostbyname",     "gethostbyname_ex", "gethostbyaddr"};
constexpr std::array<std::string_view, 10> kHttpVerbs = {
    "get", "post", "put", "patch", "delete", "head", "options", "request", "Session", "session"};
constexpr std::array<std::string_view, 4> kHttpxExtra = {"Client", "AsyncClient", "stream",
                                                         "request"};
constexpr std::array<std::string_view, 13> kPathMethods = {
    "open",    "touch", "unlink", "mkdir",      "rmdir", "rename",    "replace",
    "iterdir", "glob",  "rglob",  "symlink_to", "chmod", "write_text"};
constexpr std::array<std::string_view, 4> kCursorMethods = {"execute", "executemany",
                                                            "executescript", "callproc"};

constexpr std::array<std::string_view, 14> kRegistrationWords = {
    "register", "route", "hook",   "receiver", "handler",  "listen",      "subscribe",
    "command",  "task",  "plugin", "callback", "endpoint", "view_config", "entry_point"};
constexpr std::array<std::string_view, 10> kRouteVerbs = {
    "get", "post", "put", "patch", "delete", "head", "options", "trace", "websocket", "api_route"};

}  // namespace

bool is_env_function(std::string_view dotted) {
  return one_of(dotted, kEnvFunctions);
}

bool is_env_mapping(std::string_view dotted) {
  return dotted == "os.environ" || dotted == "os.environb";
}

std::string io_kind(std::string_view dotted, bool builtin) {
  if (builtin) return dotted == "open" ? "file:open" : "";
  for (const Effect& e : kEffects) {
    if (e.dotted == dotted) return std::string(e.label);
  }
  const size_t dot = dotted.rfind('.');
  if (dot == std::string_view::npos) return "";
  const std::string_view module = dotted.substr(0, dot);
  const std::string_view last = dotted.substr(dot + 1);
  const std::string full(dotted);
  if (module == "subprocess" && one_of(last, kSubprocess)) return "subprocess:" + std::string(last);
  if (module == "os") {
    if (one_of(last, kOsFile)) return "file:" + full;
    if (one_of(last, kOsProcess) || last.starts_with("exec") || last.starts_with("spawn")) {
      return "subprocess:" + full;
    }
  }
  if (module == "shutil" && one_of(last, kShutil)) return "file:" + full;
  if (module == "tempfile" && one_of(last, kTempfile)) return "file:" + full;
  if (module == "socket" && one_of(last, kSocket)) return "net:" + full;
  if (module == "requests" && one_of(last, kHttpVerbs)) return "net:" + full;
  if (module == "httpx" && (one_of(last, kHttpVerbs) || one_of(last, kHttpxExtra))) {
    return "net:" + full;
  }
  if ((module == "requests.Session" || module == "requests.session" || module == "httpx.Client" ||
       module == "httpx.AsyncClient") &&
      one_of(last, kHttpVerbs)) {
    return "net:" + full;
  }
  if (module == "pathlib.Path" && one_of(last, kPathMethods))
    return "file:Path." + std::string(last);
  return "";
}

std::string io_kind_of_method(std::string_view chain) {
  const std::vector<std::string_view> parts = split_chain(chain);
  if (parts.size() < 2) return "";
  const std::string_view last = chain_last(chain);
  if (is_file_method(last)) return "file:" + std::string(last);
  if (one_of(last, kCursorMethods) &&
      lower(parts[parts.size() - 2]).find("cursor") != std::string::npos) {
    return "db:cursor." + std::string(last);
  }
  return "";
}

bool is_registration(std::string_view chain, bool is_call) {
  const std::vector<std::string_view> parts = split_chain(chain);
  const std::string_view last = chain_last(chain);
  if (last == "setter" || last == "getter" || last == "deleter") return false;  // properties
  for (std::string_view part : parts) {
    if (part.ends_with("()")) part.remove_suffix(2);
    const std::string l = lower(part);
    for (std::string_view word : kRegistrationWords) {
      if (l.find(word) != std::string::npos) return true;
    }
  }
  if (parts.size() >= 2 && last == "connect") return true;
  if (is_call && last == "group") return true;
  return is_call && parts.size() >= 2 && one_of(last, kRouteVerbs);
}

}  // namespace anchorfs::analysis::python
