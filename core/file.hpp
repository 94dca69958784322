#pragma once
// Whole files read and written, the one way every floor does it: a file's
// bytes in one string, bounded (limits.hpp), or why they could not be had;
// a string put into a file, replaced, appended, made new, or swapped in
// whole. Streaming writers (HAR, the differences of a replay) keep their
// streams; this is for what fits in memory.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/limits.hpp"
#include "core/outcome.hpp"

namespace conform::core {

/// The bytes of `file`, a regular file of at most `max_bytes` bytes, or why
/// not: "cannot read 'F': No such file or directory", "cannot read 'F': not
/// a regular file" (a folder, a FIFO: never waited on), "'F' is larger than
/// the limit of N MiB".
outcome<std::string> read_file(const std::filesystem::path& file,
                               std::uintmax_t max_bytes = limits::max_file_bytes);

/// How write_file treats what is at the path already.
enum class write_mode : unsigned char {
  replace,  // created, or emptied first
  append,   // created, or added to at its end
  create,   // created; refused when something is there already (O_EXCL)
  swap_in,  // written beside as "<file>.partial" and renamed over the file,
            // so that a reader sees the old file or the new one, never half
};

/// Writes `content` to `file`; a file it creates gets the permission bits
/// `permissions` less the umask. Or says why it could not: "cannot write
/// 'F': Permission denied".
status write_file(const std::filesystem::path& file, std::string_view content,
                  write_mode how = write_mode::replace, unsigned permissions = 0666);

}  // namespace conform::core
