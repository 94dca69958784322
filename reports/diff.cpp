#include "reports/diff.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <set>

namespace conform::reports {
namespace {

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool hex_char(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}
bool all_of(std::string_view s, bool (*pred)(char)) {
  for (char c : s) {
    if (!pred(c)) return false;
  }
  return !s.empty();
}
bool digit_char(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool alpha_char(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}
bool has_digit(std::string_view s) {
  for (char c : s) {
    if (digit_char(c)) return true;
  }
  return false;
}

bool uuid_at(std::string_view s, std::size_t i) {
  if (i + 36 > s.size() || (i > 0 && word_char(s[i - 1]))) return false;
  if (i + 36 < s.size() && word_char(s[i + 36])) return false;
  for (std::size_t k = 0; k < 36; ++k) {
    const bool dash = k == 8 || k == 13 || k == 18 || k == 23;
    if (dash ? s[i + k] != '-' : !hex_char(s[i + k])) return false;
  }
  return true;
}

/// One word (a maximal run of letters, digits and '_'), normalised.
std::string normalise_word(std::string_view w) {
  if (all_of(w, digit_char)) {
    if (w.size() >= 4) return "<n>";
    if (w.size() == 3 && (w[0] < '1' || w[0] > '5')) return "<n>";
    return std::string(w);
  }
  if (const auto us = w.find('_'); us != std::string_view::npos && us > 0 &&
                                   all_of(w.substr(0, us), alpha_char) &&
                                   has_digit(w.substr(us + 1))) {
    return std::string(w.substr(0, us)) + "_<id>";
  }
  if (w.size() >= 8 && all_of(w, hex_char) && has_digit(w)) return "<hex>";
  if (w.size() >= 10 && (w.substr(0, 2) == "0x" || w.substr(0, 2) == "0X") &&
      all_of(w.substr(2), hex_char)) {
    return "<hex>";
  }
  return std::string(w);
}

}  // namespace

std::string normalise_cause(std::string_view cause) {
  std::string out;
  std::size_t i = 0;
  bool in_authority = false;  // after "://", before the next '/', space or end
  while (i < cause.size()) {
    if (cause.substr(i, 3) == "://") {
      out += "://";
      i += 3;
      in_authority = true;
      continue;
    }
    const char c = cause[i];
    if (in_authority && c == ':' && i + 1 < cause.size() && digit_char(cause[i + 1])) {
      std::size_t j = i + 1;
      while (j < cause.size() && digit_char(cause[j])) ++j;
      out += ":<port>";
      i = j;
      continue;
    }
    if (c == '/' || std::isspace(static_cast<unsigned char>(c))) in_authority = false;
    if (uuid_at(cause, i)) {
      out += "<uuid>";
      i += 36;
      continue;
    }
    if (word_char(c)) {
      std::size_t j = i;
      while (j < cause.size() && word_char(cause[j])) ++j;
      out += normalise_word(cause.substr(i, j - i));
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

std::string failure_key(const harness::failure& f) {
  return f.operation_id + " | " + f.auth_model + " | " + f.check + " | " + normalise_cause(f.cause);
}

bool is_flaky(const harness::failure& f) {
  return f.seen.find("not reproduced by a re-send") != std::string::npos;
}

run_diff compare(const std::vector<harness::failure>& old_failures,
                 const std::vector<harness::failure>& new_failures) {
  std::set<std::string> old_keys, new_keys;
  for (const auto& f : old_failures) old_keys.insert(failure_key(f));
  for (const auto& f : new_failures) new_keys.insert(failure_key(f));
  run_diff d;
  for (const auto& f : new_failures) {
    if (is_flaky(f)) {
      d.flaky.push_back(f);
    } else if (old_keys.contains(failure_key(f))) {
      d.still_failing.push_back(f);
    } else {
      d.new_failures.push_back(f);
    }
  }
  std::set<std::string> listed;
  for (const auto& f : old_failures) {
    const std::string key = failure_key(f);
    if (!new_keys.contains(key) && listed.insert(key).second) d.fixed.push_back(f);
  }
  return d;
}

std::size_t run_diff::failing_new() const {
  if (strict_assumptions) return new_failures.size();
  return static_cast<std::size_t>(
      std::count_if(new_failures.begin(), new_failures.end(),
                    [](const harness::failure& f) { return !f.contradicts_assumption(); }));
}

run_diff compare(const harness::run_report& old_report, const harness::run_report& new_report) {
  run_diff d = compare(old_report.failures, new_report.failures);
  d.strict_assumptions = new_report.info.strict_assumptions;
  return d;
}

std::string render_diff_text(const run_diff& d, bool known) {
  std::string out;
  const std::string still = known ? "known" : "still failing";
  auto section = [&](const std::string& title, const std::vector<harness::failure>& list) {
    if (list.empty()) return;
    out += title + " (" + std::to_string(list.size()) + ")\n";
    for (const auto& f : list) {
      out += "  " + failure_key(f);
      if (f.contradicts_assumption()) out += "  [contradicts an assumption of the description]";
      out += "\n";
    }
  };
  section("new", d.new_failures);
  section("fixed", d.fixed);
  section(still, d.still_failing);
  section("flaky (not reproduced by a re-send)", d.flaky);
  if (d.failing_new() != d.new_failures.size()) {
    out += std::to_string(d.new_failures.size() - d.failing_new()) +
           " of the new contradict an assumption of the description and do not fail the run "
           "(--strict-assumptions makes them)\n";
  }
  out += std::to_string(d.new_failures.size()) + " new, " + std::to_string(d.fixed.size()) +
         " fixed, " + std::to_string(d.still_failing.size()) + " " + still + ", " +
         std::to_string(d.flaky.size()) + " flaky\n";
  return out;
}

boost::json::value diff_json(const run_diff& d) {
  auto list = [](const std::vector<harness::failure>& fs) {
    boost::json::array a;
    for (const auto& f : fs) {
      boost::json::object o{{"key", failure_key(f)},
                            {"check", f.check},
                            {"operation_id", f.operation_id},
                            {"auth_model", f.auth_model},
                            {"cause", f.cause},
                            {"seen", f.seen},
                            {"curl", f.curl}};
      if (f.contradicts_assumption()) {
        boost::json::array texts;
        for (const auto& t : f.assumptions) texts.emplace_back(t);
        o["assumptions"] = std::move(texts);
      }
      a.push_back(std::move(o));
    }
    return a;
  };
  return {{"new", list(d.new_failures)},
          {"fixed", list(d.fixed)},
          {"still_failing", list(d.still_failing)},
          {"flaky", list(d.flaky)},
          {"counts",
           {{"new", d.new_failures.size()},
            {"fixed", d.fixed.size()},
            {"still_failing", d.still_failing.size()},
            {"flaky", d.flaky.size()}}},
          {"exit_code", d.exit_code()}};
}

}  // namespace conform::reports
