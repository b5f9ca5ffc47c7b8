// A reader for the version tests, run as another user: holds a descriptor on a mounted file while
// the test changes the source, then drops its cached pages and reads the whole file again.
//
//   version_reader FILE [READY_FIFO GO_FIFO [FIRST_BYTES]]
//
// Opens FILE and reads its first FIRST_BYTES bytes (default 0); with the FIFOs, writes "ready" to
// READY_FIFO and waits for GO_FIFO to be closed by the test. Then drops the page cache of the
// descriptor and prints either the whole file read from offset 0 or "error ERRNO_NAME".
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int fail(const char* what) {
  std::printf("error %s (%s)\n", strerrorname_np(errno), what);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: version_reader FILE [READY_FIFO GO_FIFO [FIRST_BYTES]]\n");
    return 2;
  }
  const int fd = ::open(argv[1], O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail("open");
  std::vector<char> buffer(1 << 20);
  const size_t first = argc == 5 ? std::strtoull(argv[4], nullptr, 10) : 0;
  for (size_t done = 0; done < first;) {
    const ssize_t n =
        ::pread(fd, buffer.data(), std::min(buffer.size(), first - done), static_cast<off_t>(done));
    if (n < 0) return fail("first read");
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  if (argc >= 4) {
    const int ready = ::open(argv[2], O_WRONLY | O_CLOEXEC);
    if (ready < 0 || ::write(ready, "ready\n", 6) != 6) return 3;
    ::close(ready);
    const int go = ::open(argv[3], O_RDONLY | O_CLOEXEC);
    if (go < 0) return 3;
    char byte;
    while (::read(go, &byte, 1) > 0) {
    }
    ::close(go);
  }
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  std::string bytes;
  for (;;) {
    const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), static_cast<off_t>(bytes.size()));
    if (n < 0) return fail("read");
    if (n == 0) break;
    bytes.append(buffer.data(), static_cast<size_t>(n));
  }
  std::fwrite(bytes.data(), 1, bytes.size(), stdout);
  return 0;
}
