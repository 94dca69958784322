#include "reference/detail/csv.hpp"

namespace conform::reference::detail {

core::outcome<csv_rows> parse_csv(std::string_view text) {
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  csv_rows rows;
  std::vector<std::string> row;
  std::string field;
  bool in_quotes = false, field_quoted = false, row_has_content = false;
  std::size_t line = 1;
  auto end_field = [&] {
    row.push_back(std::move(field));
    field.clear();
    field_quoted = false;
  };
  auto end_row = [&] {
    end_field();
    bool blank = row.size() == 1 && row[0].empty() && !row_has_content;
    if (!blank) rows.push_back(std::move(row));
    row.clear();
    row_has_content = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\0') {
      return core::fail("NUL byte on line " + std::to_string(line));
    }
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          in_quotes = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    switch (c) {
      case '"':
        if (!field.empty() || field_quoted) {
          return core::fail("stray quote on line " + std::to_string(line));
        }
        in_quotes = true;
        field_quoted = true;
        row_has_content = true;
        break;
      case ',':
        end_field();
        row_has_content = true;
        break;
      case '\r':
        if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
        end_row();
        ++line;
        break;
      case '\n':
        end_row();
        ++line;
        break;
      default:
        if (field_quoted) {
          return core::fail("text after a closing quote on line " + std::to_string(line));
        }
        field += c;
        row_has_content = true;
    }
  }
  if (in_quotes) {
    return core::fail("unterminated quoted field");
  }
  if (!field.empty() || !row.empty() || row_has_content) end_row();
  if (rows.empty()) {
    return core::fail("the file has no header row");
  }
  return rows;
}

}  // namespace conform::reference::detail
