// Sessions, steps and hop classification on hand-built runs with hand-worked expectations.
#include "trace/navigation.h"

#include <gtest/gtest.h>

#include <map>

namespace anchorfs::trace {
namespace {

FileRecord file(std::string path, uint64_t original_size,
                std::vector<FileRecord::Insertion> insertions,
                std::vector<FileRecord::Span> entities) {
  FileRecord record;
  record.path = std::move(path);
  record.original_size = original_size;
  record.size = original_size;
  for (const auto& insertion : insertions) record.size += insertion.length;
  record.mapped = true;
  record.insertions = std::move(insertions);
  record.entities = std::move(entities);
  return record;
}

ProcessRecord process(pid_t pid, pid_t sid, std::string comm) {
  ProcessRecord record;
  record.pid = pid;
  record.sid = sid;
  record.comm = std::move(comm);
  return record;
}

Event read(double t, pid_t pid, uint64_t ino, std::string path, uint64_t offset, uint64_t length,
           std::vector<std::string> tags = {}) {
  Event event;
  event.t = t;
  event.op = "read";
  event.pid = pid;
  event.ino = ino;
  event.path = std::move(path);
  event.offset = offset;
  event.length = length;
  event.tags = std::move(tags);
  return event;
}

TEST(OriginalRanges, LeaveTagTextOut) {
  // original 0..10 | tag 5 bytes | original 10..20 | tag 5 bytes | original 20..30
  const FileRecord f = file("x.py", 30, {{10, 10, 5}, {20, 25, 5}}, {});
  using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;
  EXPECT_EQ(original_ranges(f, 0, 40), (Ranges{{0, 10}, {10, 20}, {20, 30}}));
  EXPECT_EQ(original_ranges(f, 12, 14), Ranges{});
  EXPECT_EQ(original_ranges(f, 12, 18), (Ranges{{10, 13}}));
  EXPECT_EQ(original_ranges(f, 27, 32), (Ranges{{20, 22}}));
  const FileRecord top = file("y.py", 60, {{0, 0, 40}}, {});
  EXPECT_EQ(original_ranges(top, 0, 100), (Ranges{{0, 60}}));
  EXPECT_EQ(original_ranges(top, 30, 50), (Ranges{{0, 10}}));
}

TEST(MentionName, LastComponentModuleStemOrPackage) {
  EXPECT_EQ(mention_name("pkg/a.py:C.run"), "run");
  EXPECT_EQ(mention_name("pkg/a.py:helper"), "helper");
  EXPECT_EQ(mention_name("pkg/b.py"), "b");
  EXPECT_EQ(mention_name("pkg/sub/__init__.py"), "sub");
  EXPECT_EQ(mention_name("top.py"), "top");
}

TEST(Identifiers, WordsNotStartingWithADigit) {
  EXPECT_EQ(identifiers("a1 _b 9c d.e(f)"), (std::vector<std::string>{"a1", "_b", "d", "e", "f"}));
}

// Session 100: an editor process (pid 11) reads m/x.py's f (whose tag names y.g), then y.py
// (structural), an rg scan, z.py whose `h` appeared in x.py's code (lexical), w.py (exploratory),
// x.py again (structural: a tag in y.py named x.f). A python process reading five files counts
// as one search. Session 200 reads one file. rg's pattern is unknown (no command line): it may
// have listed z.py and w.py, which it read.
class TwoSessions : public ::testing::Test {
 protected:
  void SetUp() override {
    // x.py: "def f():\n    h()\n" (18 bytes) under a 20-byte tag block; then g's code.
    run_.files[2] = file("m/x.py", 40, {{0, 0, 20}},
                         {{0, 60, "file", "m/x.py"},
                          {0, 38, "function", "m/x.py:f"},
                          {38, 60, "function", "m/x.py:k"}});
    run_.files[3] =
        file("m/y.py", 10, {}, {{0, 10, "file", "m/y.py"}, {0, 10, "function", "m/y.py:g"}});
    run_.files[4] =
        file("m/z.py", 10, {}, {{0, 10, "file", "m/z.py"}, {0, 10, "function", "m/z.py:h"}});
    run_.files[5] =
        file("m/w.py", 10, {}, {{0, 10, "file", "m/w.py"}, {0, 10, "function", "m/w.py:q"}});
    run_.files[6] = file("m/v.py", 10, {}, {{0, 10, "file", "m/v.py"}});
    run_.files[7] = file("m/u.py", 10, {}, {{0, 10, "file", "m/u.py"}});
    texts_["m/x.py"] = "def f():\n    h()\n\n\ndef k():\n    pass\n\n\n\n\n";
    texts_["m/y.py"] = "def g(): 1";
    texts_["m/z.py"] = "def h(): 1";
    texts_["m/w.py"] = "def q(): 1";
    texts_["m/u.py"] = "u = 1";
    run_.processes[11] = process(11, 100, "cat");
    run_.processes[12] = process(12, 100, "rg");
    run_.processes[13] = process(13, 100, "python3");
    run_.processes[21] = process(21, 200, "cat");
    auto& e = run_.events;
    e.push_back(read(1.0, 11, 2, "m/x.py", 0, 20, {"m/y.py:g"}));
    e.push_back(read(1.1, 11, 2, "m/x.py", 20, 18));  // same visit, ranges merge
    e.push_back(read(1.5, 21, 5, "m/w.py", 0, 10));   // session 200
    e.push_back(read(2.0, 11, 3, "m/y.py", 0, 10, {"m/x.py:f"}));
    e.push_back(read(3.0, 12, 4, "m/z.py", 0, 10));  // rg: a search
    e.push_back(read(3.1, 12, 5, "m/w.py", 0, 10));
    e.push_back(read(4.0, 11, 4, "m/z.py", 0, 10));
    e.push_back(read(5.0, 11, 5, "m/w.py", 0, 10));
    for (uint64_t ino : {3, 4, 5, 6, 7}) {  // not x.py: the last hop stays structural
      e.push_back(read(6.0, 13, ino, run_.files[ino].path, 0, 10));
    }
    e.push_back(read(7.0, 11, 2, "m/x.py", 0, 10));
    options_.original = [this](const trace::Run&,
                               const FileRecord& f) -> std::optional<std::string> {
      return texts_.at(f.path);
    };
  }

  trace::Run run_;
  std::map<std::string, std::string> texts_;
  NavigationOptions options_;
};

TEST_F(TwoSessions, GroupsBySessionIdInOrderOfFirstRequest) {
  const std::vector<Session> result = sessions(run_, options_);
  ASSERT_EQ(result.size(), 2u);
  EXPECT_EQ(result[0].sid, 100);
  EXPECT_EQ(result[1].sid, 200);
  EXPECT_EQ(result[1].visits.size(), 1u);
  EXPECT_EQ(result[1].metrics.hops, 0u);
}

// Inside a pid namespace whose session leader lives outside it, /proc reports session 0: the
// commands one shell ran still form one session, keyed by the outermost visible ancestor.
TEST(Sessions, WithoutAVisibleSessionIdGroupByTheOutermostAncestor) {
  trace::Run run;
  run.files[2] = file("a.py", 10, {}, {});
  run.files[3] = file("b.py", 10, {}, {});
  for (pid_t pid : {31, 32}) {
    run.processes[pid] = process(pid, 0, "cat");
    run.processes[pid].chain = {{7, "bash"}, {5, "ci"}, {1, "init"}};
  }
  run.processes[41] = process(41, 0, "cat");
  run.processes[41].chain = {{9, "other"}, {1, "init"}};
  run.events.push_back(read(1.0, 31, 2, "a.py", 0, 10));
  run.events.push_back(read(2.0, 41, 2, "a.py", 0, 10));
  run.events.push_back(read(3.0, 32, 3, "b.py", 0, 10));
  NavigationOptions options;
  options.original = [](const trace::Run&, const FileRecord&) -> std::optional<std::string> {
    return std::string(10, ' ');
  };
  const std::vector<Session> result = sessions(run, options);
  ASSERT_EQ(result.size(), 2u);
  EXPECT_EQ(result[0].sid, 5);
  EXPECT_EQ(result[0].leader, "ci");
  EXPECT_EQ(result[0].visits.size(), 2u);
  EXPECT_EQ(result[1].sid, 9);
  EXPECT_EQ(result[1].visits.size(), 1u);
}

TEST_F(TwoSessions, ClassifiesEveryHopAsTheHandWorkedTrajectorySays) {
  const Session s = sessions(run_, options_)[0];
  ASSERT_EQ(s.visits.size(), 5u);
  ASSERT_EQ(s.searches.size(), 2u);
  // Steps: x, y, search(rg), z, w, search(python3: five files), x.
  ASSERT_EQ(s.steps.size(), 7u);
  EXPECT_TRUE(s.steps[2].first);
  EXPECT_TRUE(s.steps[5].first);
  EXPECT_EQ(s.searches[0].comm, "rg");
  EXPECT_EQ(s.searches[0].files, 2u);
  EXPECT_EQ(s.searches[1].comm, "python3");
  EXPECT_EQ(s.searches[1].files, 5u);

  const Visit& x = s.visits[0];
  EXPECT_EQ(x.path, "m/x.py");
  EXPECT_EQ(x.ranges, (std::vector<std::pair<uint64_t, uint64_t>>{{0, 38}}));
  EXPECT_EQ(x.entities, std::vector<std::string>{"m/x.py:f"});
  EXPECT_FALSE(x.hop.has_value());

  EXPECT_EQ(s.visits[1].path, "m/y.py");
  EXPECT_EQ(s.visits[1].hop, HopKind::Structural);
  EXPECT_EQ(s.visits[1].via, "m/y.py:g");
  EXPECT_FALSE(s.visits[1].after_search);

  EXPECT_EQ(s.visits[2].path, "m/z.py");
  EXPECT_EQ(s.visits[2].hop, HopKind::Lexical);  // "h()" in the code of x.py's f
  EXPECT_EQ(s.visits[2].via, "m/z.py:h");
  EXPECT_TRUE(s.visits[2].after_search);

  EXPECT_EQ(s.visits[3].path, "m/w.py");
  EXPECT_EQ(s.visits[3].hop, HopKind::Exploratory);
  EXPECT_TRUE(s.visits[3].via.empty());

  EXPECT_EQ(s.visits[4].path, "m/x.py");
  EXPECT_EQ(s.visits[4].hop, HopKind::Structural);  // y.py's tag named m/x.py:f
  EXPECT_EQ(s.visits[4].via, "m/x.py:f");
  EXPECT_TRUE(s.visits[4].revisit);
  EXPECT_TRUE(s.visits[4].after_search);

  // rg read z.py and w.py, python3 neither x.py nor y.py.
  EXPECT_EQ((std::vector<bool>{s.visits[0].found_by_search, s.visits[1].found_by_search,
                               s.visits[2].found_by_search, s.visits[3].found_by_search,
                               s.visits[4].found_by_search}),
            (std::vector<bool>{false, false, true, true, false}));

  const SessionMetrics& m = s.metrics;
  EXPECT_EQ(m.visits, 5u);
  EXPECT_EQ(m.searches, 2u);
  EXPECT_EQ(m.rounds, 7u);
  EXPECT_EQ(m.hops, 4u);
  EXPECT_EQ(m.structural, 2u);
  EXPECT_EQ(m.lexical, 1u);
  EXPECT_EQ(m.exploratory, 1u);
  EXPECT_DOUBLE_EQ(m.lfr, 0.5);
}

TEST_F(TwoSessions, TagTextIsNotLexicalEvidence) {
  // Only the tag block of x.py is read: "g" never appears in code, only in a tag, and the tag is
  // dropped, so y.py is exploratory.
  run_.events = {read(1.0, 11, 2, "m/x.py", 0, 20), read(2.0, 11, 3, "m/y.py", 0, 10)};
  texts_["m/x.py"] = std::string(40, ' ');
  const Session s = sessions(run_, options_)[0];
  ASSERT_EQ(s.visits.size(), 2u);
  EXPECT_EQ(s.visits[1].hop, HopKind::Exploratory);
}

TEST_F(TwoSessions, UnavailableTextIsFlaggedNotGuessed) {
  options_.original = [](const trace::Run&, const FileRecord&) -> std::optional<std::string> {
    return std::nullopt;
  };
  const Session s = sessions(run_, options_)[0];
  EXPECT_TRUE(s.visits[0].text_unavailable);
  EXPECT_EQ(s.visits[2].hop, HopKind::Exploratory);  // no text read: z's `h` unseen
}

// The rule of docs/study.md, hand-worked. `grep -rlw helper .` reads all four files; a.py's tag
// names b.py:helper and d.py:caller. b.py spells `helper`, so grep listed it: reaching it is not
// following the tag, however the tag named it (lexical: a.py's code says `helper`). d.py does not
// spell it: only the tag could have led there (structural). c.py: neither (exploratory).
// LFR = 1/3, where counting every tagged target would say 2/3.
TEST(FoundBySearch, AGrepHitIsNotStructuralEvenWhenATagNamedIt) {
  trace::Run run;
  run.files[2] = file("a.py", 24, {}, {{0, 24, "function", "a.py:run"}});
  run.files[3] = file("b.py", 15, {}, {{0, 15, "function", "b.py:helper"}});
  run.files[4] = file("c.py", 14, {}, {{0, 14, "function", "c.py:other"}});
  run.files[5] = file("d.py", 15, {}, {{0, 15, "function", "d.py:caller"}});
  const std::map<std::string, std::string> texts{{"a.py", "def run():\n    helper()\n"},
                                                 {"b.py", "def helper(): 1"},
                                                 {"c.py", "def other(): 1"},
                                                 {"d.py", "def caller(): 1"}};
  run.processes[51] = process(51, 100, "grep");
  run.processes[51].cmdline = "grep -rlw helper .";
  for (pid_t pid : {52, 53, 54, 55}) run.processes[pid] = process(pid, 100, "cat");
  for (uint64_t ino : {2, 3, 4, 5}) {
    run.events.push_back(read(1.0, 51, ino, run.files[ino].path, 0, 15));
  }
  run.events.push_back(read(2.0, 52, 2, "a.py", 0, 24, {"b.py:helper", "d.py:caller"}));
  run.events.push_back(read(3.0, 53, 3, "b.py", 0, 15));
  run.events.push_back(read(4.0, 54, 5, "d.py", 0, 15));
  run.events.push_back(read(5.0, 55, 4, "c.py", 0, 14));
  NavigationOptions options;
  options.original = [&texts](const trace::Run&, const FileRecord& f) {
    return std::optional<std::string>(texts.at(f.path));
  };
  const Session s = sessions(run, options)[0];
  ASSERT_EQ(s.visits.size(), 4u);
  EXPECT_TRUE(s.visits[1].found_by_search);
  EXPECT_EQ(s.visits[1].hop, HopKind::Lexical);
  EXPECT_EQ(s.visits[1].via, "b.py:helper");
  EXPECT_FALSE(s.visits[2].found_by_search);
  EXPECT_EQ(s.visits[2].hop, HopKind::Structural);
  EXPECT_EQ(s.visits[2].via, "d.py:caller");
  EXPECT_FALSE(s.visits[3].found_by_search);
  EXPECT_EQ(s.visits[3].hop, HopKind::Exploratory);
  EXPECT_EQ(s.metrics.structural, 1u);
  EXPECT_DOUBLE_EQ(s.metrics.lfr, 1.0 / 3.0);

  // An agent that follows no link: grep, then cat every hit. Tags name each hit, none counts.
  run.events.erase(run.events.begin() + 6, run.events.end());  // keep grep, a.py, b.py
  const Session no_link = sessions(run, options)[0];
  EXPECT_EQ(no_link.metrics.hops, 1u);
  EXPECT_EQ(no_link.metrics.structural, 0u);
  EXPECT_DOUBLE_EQ(no_link.metrics.lfr, 0.0);
}

TEST(SearchMayList, ReadsThePatternFromTheCommandLine) {
  EXPECT_TRUE(search_may_list("grep", "grep -rlw helper .", "x = helper()"));
  EXPECT_FALSE(search_may_list("grep", "grep -rlw helper .", "x = 1"));
  EXPECT_TRUE(search_may_list("grep", "grep -rlwZ --include=*.py -- helper .", "helper"));
  EXPECT_FALSE(search_may_list("grep", "grep -rn -A 3 helper .", "x = 3"));  // -A takes 3
  EXPECT_TRUE(search_may_list("grep", "grep -rn -A3 helper .", "helper"));
  EXPECT_TRUE(search_may_list("rg", "rg -i HELPER", "helper"));
  EXPECT_FALSE(search_may_list("rg", "rg HELPER", "helper"));
  EXPECT_TRUE(search_may_list("rg", "rg -e foo -e bar src", "bar"));
  EXPECT_FALSE(search_may_list("rg", "rg -e foo -e bar src", "src"));
  EXPECT_TRUE(search_may_list("rg", "rg --glob *.py def\\s+helper", "def helper"));
  EXPECT_FALSE(search_may_list("rg", "rg --glob *.py def\\s+helper", "helper"));
  EXPECT_TRUE(search_may_list("grep", "grep -r foo\\|bar .", "bar"));
  EXPECT_TRUE(search_may_list("rg", "rg foo|bar", "bar"));
  EXPECT_TRUE(search_may_list("rg", "rg \\bhelper\\b", "helper"));
  EXPECT_TRUE(search_may_list("git", "git grep -n helper", "helper"));
  EXPECT_FALSE(search_may_list("git", "git grep -n helper", "x"));
  // What cannot be told may have listed the file: inverted or file-given patterns, other tools,
  // a pattern without identifiers.
  EXPECT_TRUE(search_may_list("grep", "grep -rv helper .", "x"));
  EXPECT_TRUE(search_may_list("grep", "grep -f patterns.txt .", "x"));
  EXPECT_TRUE(search_may_list("python3", "python3 scan.py", "x"));
  EXPECT_TRUE(search_may_list("git", "git log -p", "x"));
  EXPECT_TRUE(search_may_list("rg", "rg [0-9]+", "x"));
  EXPECT_TRUE(search_may_list("grep", "", "x"));
}

}  // namespace
}  // namespace anchorfs::trace
