// The run report's own reasoning: failure modes as text, verdicts that
// rest on an assumption, the run's labels, its exit code, and which of
// the description's assumptions the run contradicted or never observed.
#include "harness/run_report.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace conform::harness {

std::string failure_mode::to_string() const {
  switch (what) {
    case kind::valid:
      return detail.empty() ? "valid" : "valid: " + detail;
    case kind::invalid:
      return "invalid: " + detail;
    case kind::scenario:
      return "scenario: " + detail;
    case kind::traffic:
      return "client traffic: " + detail;
  }
  return "valid";
}

check_verdict& check_verdict::assumed(std::vector<std::string> texts) {
  if (what != kind::violation || texts.empty()) return *this;
  std::string where;
  for (const auto& t : texts) {
    where += (where.empty() ? "" : ", ") + t.substr(0, t.find(": "));
  }
  assumptions = std::move(texts);
  cause += " (assumption " + where + ")";
  return *this;
}

std::string run_info::writes_label() const {
  if (writes == write_mode::safe) {
    std::string out = "safe: writes only to what this run creates";
    if (!writes_because.empty()) out += " (" + writes_because + ")";
    return out;
  }
  std::string out = "destructive: writes to any resource it reaches";
  if (!writes_because.empty()) out += " (" + writes_because + ")";
  return out;
}

std::string run_info::shard_label() const {
  if (shard_count == 0) return "";
  if (merged_shards.empty()) {
    return "shard " + std::to_string(shard_index) + "/" + std::to_string(shard_count);
  }
  std::string out = merged_shards.size() == 1 ? "shard " : "shards ";
  for (std::size_t i = 0; i < merged_shards.size(); ++i) {
    out += (i ? ", " : "") + std::to_string(merged_shards[i]);
  }
  return out + " of " + std::to_string(shard_count) + ", merged";
}

int run_report::exit_code() const {
  if (aborted) return 2;
  if (std::any_of(failures.begin(), failures.end(),
                  [this](const failure& f) { return fails_run(f); })) {
    return 1;
  }
  // A run that judged nothing proved nothing: the profile (or the filters)
  // left no check anything to do. That is a configuration error, not a pass.
  if (counts.checks_passed == 0) return 2;
  // Passed, but not all of it ran: the description kept operations out.
  return info.skipped_operations > 0 ? 3 : 0;
}

std::vector<run_report::contradicted_assumption> run_report::assumptions_contradicted() const {
  std::vector<contradicted_assumption> out;
  for (const auto& f : failures) {
    for (const auto& text : f.assumptions) {
      auto it = std::find_if(out.begin(), out.end(),
                             [&](const contradicted_assumption& c) { return c.text == text; });
      if (it == out.end()) {
        out.push_back({text, 1});
      } else {
        ++it->failures;
      }
    }
  }
  return out;
}

std::vector<run_report::unobserved_assumption> run_report::assumptions_not_observed() const {
  std::set<std::string_view> said;  // contradicted, or listed already
  for (const auto& f : failures) said.insert(f.assumptions.begin(), f.assumptions.end());
  std::vector<unobserved_assumption> out;
  for (const auto& n : notes) {
    for (const auto& text : n.assumptions) {
      if (said.insert(text).second) out.push_back({text, n.status});
    }
  }
  return out;
}

std::vector<std::string> run_report::assumptions_not_contradicted() const {
  // Neither a failure's (contradicted) nor a note's (not observed).
  std::set<std::string_view> said;
  for (const auto& f : failures) said.insert(f.assumptions.begin(), f.assumptions.end());
  for (const auto& n : notes) said.insert(n.assumptions.begin(), n.assumptions.end());
  std::vector<std::string> out;
  for (const auto& text : assumptions) {
    if (!said.count(text)) out.push_back(text);
  }
  return out;
}

}  // namespace conform::harness
