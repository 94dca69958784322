#pragma once
// The one check catalogue: every check of the run by name, per-exchange,
// scenario and traffic checks side by side, in the order reports list them.
// `--checks` and `--list-checks` read it; a run takes the selection it makes
// (`conform run` the first two kinds, `conform certify` the traffic checks).

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/outcome.hpp"
#include "harness/check.hpp"
#include "harness/scenario.hpp"
#include "harness/traffic.hpp"

namespace conform::harness {

/// How a check runs.
enum class check_kind : std::uint8_t { per_exchange, scenario, traffic };

/// The checks a run enables, by how they run.
struct check_selection {
  std::vector<const exchange_check*> exchange;  // applied to every generated exchange
  std::vector<const scenario*> scenarios;       // run first, one after another
  std::vector<std::string> scenario_checks;     // the enabled checks of those scenarios
  std::vector<const traffic_check*> traffic;    // client rules: judge a recorded traffic

  /// True when scenario check `name` is enabled.
  bool enabled(std::string_view name) const;
  /// Every enabled check's name a run judges: the per-exchange ones, then
  /// the scenario ones (traffic checks are conform certify's).
  std::vector<std::string> names() const;
};

class check_catalogue {
 public:
  /// One check of the catalogue.
  struct entry {
    const check_info* info = nullptr;
    check_kind kind = check_kind::per_exchange;
    const exchange_check* exchange = nullptr;  // per_exchange
    const scenario* procedure = nullptr;       // scenario: the procedure that reports it
    const traffic_check* traffic = nullptr;    // traffic
  };

  check_catalogue() = default;
  check_catalogue(const check_catalogue&) = delete;  // entries point into it
  check_catalogue& operator=(const check_catalogue&) = delete;
  check_catalogue(check_catalogue&&) = default;
  check_catalogue& operator=(check_catalogue&&) = default;

  /// Adds a per-exchange check. A name the catalogue already holds is a
  /// programming error: throws std::logic_error naming it.
  void add(exchange_check c);
  /// Adds a scenario and every check it reports under (the same rule for names).
  void add(scenario s);
  /// Adds a check of recorded client traffic (the same rule for names).
  void add(traffic_check c);

  /// Every check, in the order added.
  const std::vector<entry>& all() const { return entries_; }
  /// The check named `name`, or nullptr.
  const entry* find(std::string_view name) const;

  /// Every check when `names` is empty, else those named (in that order).
  /// The error is the first name that is not in the catalogue.
  core::outcome<check_selection> select(const std::vector<std::string>& names) const;

 private:
  void refuse_duplicate(const std::string& name) const;

  std::deque<exchange_check> exchange_checks_;  // deques: entries point into them
  std::deque<scenario> scenarios_;
  std::deque<traffic_check> traffic_checks_;
  std::vector<entry> entries_;
};

}  // namespace conform::harness
