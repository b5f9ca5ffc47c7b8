// fs/source_file: which errno a reader of a source that cannot be opened gets.
#include "fs/source_file.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace anchorfs::fs {
namespace {

// What the reader can act on reaches it as itself: out of descriptors (EMFILE, ENFILE), no
// permission (EACCES, EPERM), gone (ENOENT, ENOTDIR), ...
TEST(SourceFile, OpenErrorsAReaderCanActOnKeepTheirErrno) {
  for (int error : {EMFILE, ENFILE, EACCES, EPERM, ENOENT, ENOTDIR, ENOMEM, ENAMETOOLONG}) {
    EXPECT_EQ(open_error_for_reader(error), error) << error;
  }
}

// A symlink or a mount swapped in on the path (ELOOP, EXDEV from RESOLVE_BENEATH) is the
// server's business, not a state of the file the reader asked for.
TEST(SourceFile, OpenErrorsAboutThePathItselfAreEio) {
  for (int error : {ELOOP, EXDEV, EAGAIN, EIO, EINVAL}) {
    EXPECT_EQ(open_error_for_reader(error), EIO) << error;
  }
}

}  // namespace
}  // namespace anchorfs::fs
