#include "reports/detail_text.hpp"

#include <boost/json.hpp>

#include <cstdio>

#include "core/text.hpp"

namespace conform::reports::detail {

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
