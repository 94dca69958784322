#include "reports/detail_text.hpp"

#include <boost/json.hpp>

#include <cstdio>
#include <fstream>

#include "core/text.hpp"

namespace conform::reports::detail {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  auto escaped_byte = [&out](unsigned char c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", c);
    out += buf;
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t n = core::utf8_sequence_length(text, i);
      // XML 1.0 forbids U+FFFE and U+FFFF (EF BF BE, EF BF BF) as well.
      const bool nonchar = n == 3 && c == 0xEF && static_cast<unsigned char>(text[i + 1]) == 0xBF &&
                           static_cast<unsigned char>(text[i + 2]) >= 0xBE;
      if (n == 0 || nonchar) {
        escaped_byte(c);
        ++i;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\n':
      case '\t':
      case '\r':
        out += static_cast<char>(c);
        break;
      default:
        // XML 1.0 forbids other control characters: show them as \xNN.
        if (c < 0x20) {
          escaped_byte(c);
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  return out;
}

std::string shown(std::string_view text) {
  return core::escape_invalid_utf8(text, true);
}

void make_utf8(boost::json::value& v) {
  if (auto* s = v.if_string()) {
    if (!core::is_utf8(*s)) *s = core::escape_invalid_utf8(*s);
  } else if (auto* a = v.if_array()) {
    for (auto& item : *a) make_utf8(item);
  } else if (auto* o = v.if_object()) {
    // Keys are ours (field names), but a map keyed by server text would not be.
    bool bad_key = false;
    for (auto& e : *o) {
      bad_key = bad_key || !core::is_utf8(e.key());
      make_utf8(e.value());
    }
    if (bad_key) {
      boost::json::object fixed;
      for (auto& e : *o) fixed[core::escape_invalid_utf8(e.key())] = std::move(e.value());
      *o = std::move(fixed);
    }
  }
}

std::string seconds(std::chrono::nanoseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", std::chrono::duration<double>(d).count());
  return buf;
}

core::status write_file(const std::string& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    return core::fail("cannot open " + path + " for writing");
  }
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) {
    return core::fail("cannot write " + path);
  }
  return {};
}

std::string reproduce_command(const harness::failure& f, const harness::run_info& info) {
  const bool scenario = !f.mode.shrinkable();
  return "conform run --seed " + std::to_string(f.seed) +
         (scenario ? "" : " --include " + f.operation_id) + " --checks " + f.check +
         " --examples " + std::to_string(info.examples) +
         (info.spec_argument.empty() ? "" : " --spec " + info.spec_argument) +
         (info.profile_file.empty() ? "" : " --profile " + info.profile_file) +
         info.target_arguments;
}

}  // namespace conform::reports::detail
