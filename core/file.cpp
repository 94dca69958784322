#include "core/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace conform::core {

namespace {

/// Closes a descriptor when it goes out of scope.
struct file_descriptor {
  int fd = -1;
  file_descriptor(const file_descriptor&) = delete;
  file_descriptor& operator=(const file_descriptor&) = delete;
  explicit file_descriptor(int d) : fd(d) {}
  ~file_descriptor() {
    if (fd >= 0) ::close(fd);
  }
  /// Closes it now; false when close says the data did not reach the file.
  bool close() {
    const int d = fd;
    fd = -1;
    return ::close(d) == 0;
  }
};

std::string cannot(std::string_view verb, const std::filesystem::path& file, int err) {
  return "cannot " + std::string(verb) + " '" + file.string() + "': " + std::strerror(err);
}

/// Writes all of `content` to `fd`; the errno of the failure, or 0.
int write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

}  // namespace

outcome<std::string> read_file(const std::filesystem::path& file, std::uintmax_t max_bytes) {
  // O_NONBLOCK: opening a FIFO for reading must not wait for a writer.
  file_descriptor in(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (in.fd < 0) return fail(cannot("read", file, errno));
  struct stat st {};
  if (::fstat(in.fd, &st) != 0) return fail(cannot("read", file, errno));
  if (!S_ISREG(st.st_mode)) return fail("cannot read '" + file.string() + "': not a regular file");
  const auto too_large = [&] {
    return fail("'" + file.string() + "' is larger than the limit of " +
                std::to_string(max_bytes >> 20) + " MiB");
  };
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) return too_large();
  std::string bytes;
  bytes.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  // A file that grows while it is read is read to the limit and one byte more.
  while (true) {
    if (got == bytes.size()) {
      if (bytes.size() > max_bytes) return too_large();
      bytes.resize(std::min<std::uintmax_t>(bytes.size() + (1u << 16), max_bytes + 1));
    }
    const ssize_t n = ::read(in.fd, bytes.data() + got, bytes.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(cannot("read", file, errno));
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  if (bytes.size() > max_bytes) return too_large();
  return bytes;
}

status write_file(const std::filesystem::path& file, std::string_view content, write_mode how,
                  unsigned permissions) {
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC;
  switch (how) {
    case write_mode::replace:
    case write_mode::swap_in:
      flags |= O_TRUNC;
      break;
    case write_mode::append:
      flags |= O_APPEND;
      break;
    case write_mode::create:
      flags |= O_EXCL;
      break;
  }
  std::filesystem::path target = file;
  if (how == write_mode::swap_in) target += ".partial";
  file_descriptor out(::open(target.c_str(), flags, static_cast<mode_t>(permissions)));
  if (out.fd < 0) return fail(cannot("write", file, errno));
  int err = write_all(out.fd, content);
  if (!out.close() && err == 0) err = errno;
  std::error_code ec;
  if (err != 0) {
    if (how == write_mode::swap_in) std::filesystem::remove(target, ec);
    return fail(cannot("write", file, err));
  }
  if (how == write_mode::swap_in) {
    std::filesystem::rename(target, file, ec);
    if (ec) {
      const std::string why = ec.message();
      std::filesystem::remove(target, ec);
      return fail("cannot write '" + file.string() + "': " + why);
    }
  }
  return {};
}

}  // namespace conform::core
