#pragma once
// What every command's option parser shares: walking the arguments
// ("--name value" and "--name=value" alike) and reading the values.

#include <charconv>
#include <string>
#include <vector>

#include "core/outcome.hpp"

namespace conform::cli {

/// Walks a command's arguments one option at a time.
class argument_reader {
 public:
  explicit argument_reader(const std::vector<std::string>& args) : args_(args) {}

  /// Moves to the next argument; false at the end.
  bool next();
  /// The current option's name, without any "=value" ("--seed").
  const std::string& name() const { return name_; }
  /// Reads the current option's value into `out`: the part after '=', else
  /// the next argument. An error when there is none.
  core::status value(std::string& out);
  /// The arguments after the current one (what follows "--").
  std::vector<std::string> rest() const;

 private:
  const std::vector<std::string>& args_;
  std::size_t next_ = 0;
  std::string name_, inline_value_;
  bool has_inline_value_ = false;
};

/// True when all of `text` is a number of T.
template <typename T>
bool parse_number(const std::string& text, T& out) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

/// A positive number of seconds, a day at most (beyond that a timeout is a
/// typo, and it must fit the milliseconds the client counts in).
bool parse_seconds(const std::string& text, double& out);

/// "a,b,,c" -> {"a", "b", "c"}.
std::vector<std::string> split_list(const std::string& text);

}  // namespace conform::cli
