// cli/mountinfo: the one mountinfo parser (the CLI's checks and every test's mount questions).
#include "cli/mountinfo.h"

#include <gtest/gtest.h>

namespace anchorfs::cli {
namespace {

TEST(Mountinfo, ReadsEveryFieldPastTheOptionalOnes) {
  const std::vector<MountEntry> mounts = parse_mountinfo(
      "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 shared:7 - ext3 /dev/root "
      "rw,errors=continue\n"
      "612 29 0:52 / /tmp/view rw,nosuid,nodev - fuse.anchorfs /srv/repo "
      "ro,user_id=0,group_id=0\n");
  ASSERT_EQ(mounts.size(), 2u);
  EXPECT_EQ(mounts[0].mount_point, "/mnt/parent");
  EXPECT_EQ(mounts[0].device, "98:0");
  EXPECT_EQ(mounts[0].fstype, "ext3");
  EXPECT_EQ(mounts[0].source, "/dev/root");
  EXPECT_EQ(mounts[0].super_options, "rw,errors=continue");
  EXPECT_EQ(mounts[1].mount_point, "/tmp/view");
  EXPECT_EQ(mounts[1].fstype, kAnchorfsFsType);
  EXPECT_EQ(mounts[1].source, "/srv/repo");
  EXPECT_EQ(mounts[1].super_options, "ro,user_id=0,group_id=0");
}

TEST(Mountinfo, UnescapesSpaceTabNewlineAndBackslash) {
  const std::vector<MountEntry> mounts = parse_mountinfo(
      "1 2 0:5 / /tmp/a\\040b\\011c\\012d\\134e rw - fuse.anchorfs /src\\040dir ro\n");
  ASSERT_EQ(mounts.size(), 1u);
  EXPECT_EQ(mounts[0].mount_point, "/tmp/a b\tc\nd\\e");
  EXPECT_EQ(mounts[0].source, "/src dir");
}

TEST(Mountinfo, KeepsABackslashThatStartsNoOctalEscape) {
  const std::vector<MountEntry> mounts =
      parse_mountinfo("1 2 0:5 / /tmp/x\\9y\\04 rw - tmpfs none rw\n");
  ASSERT_EQ(mounts.size(), 1u);
  EXPECT_EQ(mounts[0].mount_point, "/tmp/x\\9y\\04");
}

TEST(Mountinfo, SkipsLinesThatDoNotParse) {
  const std::vector<MountEntry> mounts = parse_mountinfo(
      "\n"
      "garbage\n"
      "1 2 0:5 / /no/separator rw shared:1 ext4 /dev/sda1 rw\n"
      "1 2 0:5 / /ends/at/separator rw -\n"
      "3 4 0:6 / /fine rw - tmpfs tmpfs rw\n");
  ASSERT_EQ(mounts.size(), 1u);
  EXPECT_EQ(mounts[0].mount_point, "/fine");
}

TEST(Mountinfo, TheLiveTableListsTheRoot) {
  bool root = false;
  for (const MountEntry& entry : mount_table()) root = root || entry.mount_point == "/";
  EXPECT_TRUE(root);
  EXPECT_TRUE(find_mount("/").has_value());
  EXPECT_FALSE(find_mount("/surely/not/a/mount/point").has_value());
}

}  // namespace
}  // namespace anchorfs::cli
