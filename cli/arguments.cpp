#include "cli/arguments.hpp"

#include <cmath>
#include <exception>

namespace conform::cli {

bool argument_reader::next() {
  if (next_ >= args_.size()) return false;
  name_ = args_[next_++];
  has_inline_value_ = false;
  inline_value_.clear();
  if (name_.rfind("--", 0) == 0) {
    if (auto eq = name_.find('='); eq != std::string::npos) {
      inline_value_ = name_.substr(eq + 1);
      name_.resize(eq);
      has_inline_value_ = true;
    }
  }
  return true;
}

core::status argument_reader::value(std::string& out) {
  if (has_inline_value_) {
    out = inline_value_;
    return {};
  }
  if (next_ >= args_.size()) return core::fail("option " + name_ + " needs a value");
  out = args_[next_++];
  return {};
}

std::vector<std::string> argument_reader::rest() const {
  return {args_.begin() + static_cast<std::ptrdiff_t>(next_), args_.end()};
}

bool parse_seconds(const std::string& text, double& out) {
  try {
    std::size_t used = 0;
    out = std::stod(text, &used);
    return used == text.size() && std::isfinite(out) && out > 0 && out <= 86400;
  } catch (const std::exception&) {
    return false;
  }
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace conform::cli
