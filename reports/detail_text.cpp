#include "reports/detail_text.hpp"

#include <cstdio>
#include <fstream>

namespace conform::reports::detail {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
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
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

std::string seconds(std::chrono::nanoseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", std::chrono::duration<double>(d).count());
  return buf;
}

bool write_file(const std::string& path, std::string_view content, std::string& error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    error = "cannot open " + path + " for writing";
    return false;
  }
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) {
    error = "cannot write " + path;
    return false;
  }
  return true;
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
