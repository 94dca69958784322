// The small value types of the runner: exit codes, the listener fan-out, the
// check registry.
#include <algorithm>

#include "harness/check.hpp"
#include "harness/listener.hpp"
#include "harness/outcome.hpp"

namespace conform::harness {

int run_report::exit_code() const {
  if (aborted) return 2;
  if (!failures.empty()) return 1;
  // A run that judged nothing proved nothing: the profile (or the filters)
  // left no check anything to do. That is a configuration error, not a pass.
  return counts.checks_passed == 0 ? 2 : 0;
}

void multi_listener::run_started(const run_info& info, std::uint64_t planned) {
  for (auto& l : listeners_) l->run_started(info, planned);
}
void multi_listener::exchange_done(std::uint64_t done, std::uint64_t planned) {
  for (auto& l : listeners_) l->exchange_done(done, planned);
}
void multi_listener::failure_found(const failure& f) {
  for (auto& l : listeners_) l->failure_found(f);
}
void multi_listener::run_finished(const run_report& report) {
  for (auto& l : listeners_) l->run_finished(report);
}

std::string auth_model::label() const {
  if (credential_name.empty()) return name;
  return name + " (" + credential_name + ")";
}

void check_registry::add(check c) {
  auto it = std::find_if(checks_.begin(), checks_.end(),
                         [&](const check& existing) { return existing.name == c.name; });
  if (it != checks_.end()) {
    *it = std::move(c);
  } else {
    checks_.push_back(std::move(c));
  }
}

const check* check_registry::find(std::string_view name) const {
  for (const auto& c : checks_) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace conform::harness
