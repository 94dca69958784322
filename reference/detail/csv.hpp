#pragma once
// A small RFC 4180 reader for contact imports.

#include <string>
#include <string_view>
#include <vector>

#include "core/outcome.hpp"

namespace conform::reference::detail {

/// Rows of fields; the first row is the header.
using csv_rows = std::vector<std::vector<std::string>>;

/// Parses CSV text (quoted fields, "" escapes, CRLF or LF; blank lines
/// skipped), or says why the text is unreadable (unterminated quote, NUL
/// byte, stray quote, no header row).
core::outcome<csv_rows> parse_csv(std::string_view text);

}  // namespace conform::reference::detail
