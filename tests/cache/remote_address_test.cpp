// redis:// URLs: every part parsed, malformed ones refused, credentials never shown.
#include "cache/remote_address.h"

#include <gtest/gtest.h>

namespace anchorfs::cache {
namespace {

TEST(RemoteAddress, ParsesHostPortDatabaseAndCredentials) {
  std::string error;
  auto a = parse_remote_address("redis://alice:s%40cret@cache.example:6380/3", error);
  ASSERT_TRUE(a) << error;
  EXPECT_EQ(a->host, "cache.example");
  EXPECT_EQ(a->port, 6380);
  EXPECT_EQ(a->db, 3);
  EXPECT_EQ(a->user, "alice");
  EXPECT_EQ(a->password, "s@cret");
  EXPECT_EQ(a->display(), "redis://***@cache.example:6380/3");

  auto plain = parse_remote_address("redis://10.0.0.5", error);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->port, 6379);
  EXPECT_EQ(plain->db, 0);
  EXPECT_EQ(plain->display(), "redis://10.0.0.5:6379/0");

  auto password_only = parse_remote_address("redis://:hunter2@h:1", error);
  ASSERT_TRUE(password_only);
  EXPECT_EQ(password_only->user, "");
  EXPECT_EQ(password_only->password, "hunter2");

  auto v6 = parse_remote_address("redis://[::1]:7000/1", error);
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->display(), "redis://[::1]:7000/1");
}

TEST(RemoteAddress, RefusesMalformedUrlsWithoutQuotingThem) {
  for (const char* url : {"http://h:1", "redis://", "redis://h:0", "redis://h:99999",
                          "redis://h:1/x", "redis://u:p%zz@h:1", "redis://[::1:5"}) {
    std::string error;
    EXPECT_FALSE(parse_remote_address(url, error)) << url;
    EXPECT_FALSE(error.empty()) << url;
    EXPECT_EQ(error.find("p%zz"), std::string::npos);
  }
}

}  // namespace
}  // namespace anchorfs::cache
