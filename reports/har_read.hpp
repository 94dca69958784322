#pragma once
// Reads the entries of a HAR file back (`conform replay`), one at a time:
// the file is scanned, never held whole, so a long recording replays with
// flat memory. Entries Conform wrote carry `_conform`; others (a browser's,
// a proxy's) are read from their HAR fields alone.

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "core/outcome.hpp"
#include "harness/recorded.hpp"

namespace conform::reports {

/// What the log's `_conform` says of the run that recorded it (empty when
/// absent, or when it comes after the entries).
struct har_origin {
  std::string command;
  std::string spec_file;
  std::string spec_hash;
  std::string target;
  std::uint64_t seed = 0;  // the recorded run's --seed
};

class har_reader {
 public:
  /// Opens `path`; error() says why when it cannot.
  explicit har_reader(const std::string& path);
  /// The next entry, or nullopt at the end or on an error (error() then
  /// names the file, the entry and the JSON pointer of what is wrong).
  std::optional<harness::recorded_exchange> next();
  const std::string& error() const { return error_; }
  const har_origin& origin() const { return origin_; }
  /// Entries read so far.
  std::uint64_t count() const { return count_; }

 private:
  /// The text of the next value of `entries` (or of the log's `_conform`),
  /// scanning on; nullopt at the end of the array or the file.
  std::optional<std::string> next_value();
  bool fill();

  std::string path_;
  std::ifstream in_;
  std::string buf_;
  std::size_t at_ = 0;
  bool eof_ = false;
  // The scanner: nesting depth, string state, the key of each open object.
  int depth_ = 0;
  bool in_string_ = false, escaped_ = false;
  std::string token_;  // the string being read, when it may be a key
  std::string last_string_;
  std::vector<std::string> keys_;  // keys_[d]: the last key read at depth d
  int entries_depth_ = -1;         // depth inside `entries`, once found
  bool done_ = false;
  har_origin origin_;
  std::uint64_t count_ = 0;
  std::string error_;
};

/// Converts one HAR entry's JSON to a recorded exchange, or says why it is
/// not one (a JSON pointer and what is wrong).
core::outcome<harness::recorded_exchange> har_entry_from_json(const std::string& text);

}  // namespace conform::reports
