#include "harness/catalogue.hpp"

#include <algorithm>
#include <stdexcept>

namespace conform::harness {

bool check_selection::enabled(std::string_view name) const {
  return std::find(scenario_checks.begin(), scenario_checks.end(), name) != scenario_checks.end();
}

std::vector<std::string> check_selection::names() const {
  std::vector<std::string> out;
  for (const auto* c : exchange) out.push_back(c->info.name);
  out.insert(out.end(), scenario_checks.begin(), scenario_checks.end());
  return out;
}

void check_catalogue::refuse_duplicate(const std::string& name) const {
  if (find(name)) {
    throw std::logic_error("check catalogue: a second check is named '" + name + "'");
  }
}

void check_catalogue::add(exchange_check c) {
  refuse_duplicate(c.info.name);
  const exchange_check& kept = exchange_checks_.emplace_back(std::move(c));
  entries_.push_back({&kept.info, check_kind::per_exchange, &kept, nullptr, nullptr});
}

void check_catalogue::add(traffic_check c) {
  refuse_duplicate(c.info.name);
  const traffic_check& kept = traffic_checks_.emplace_back(std::move(c));
  entries_.push_back({&kept.info, check_kind::traffic, nullptr, nullptr, &kept});
}

void check_catalogue::add(scenario s) {
  const scenario& kept = scenarios_.emplace_back(std::move(s));
  for (const auto& info : kept.checks) {
    refuse_duplicate(info.name);  // also a name given twice by the same scenario
    entries_.push_back({&info, check_kind::scenario, nullptr, &kept, nullptr});
  }
}

const check_catalogue::entry* check_catalogue::find(std::string_view name) const {
  for (const auto& e : entries_) {
    if (e.info->name == name) return &e;
  }
  return nullptr;
}

core::outcome<check_selection> check_catalogue::select(
    const std::vector<std::string>& names) const {
  check_selection out;
  auto take = [&out](const entry& e) {
    if (e.kind == check_kind::per_exchange) {
      out.exchange.push_back(e.exchange);
      return;
    }
    if (e.kind == check_kind::traffic) {
      out.traffic.push_back(e.traffic);
      return;
    }
    if (std::find(out.scenarios.begin(), out.scenarios.end(), e.procedure) == out.scenarios.end()) {
      out.scenarios.push_back(e.procedure);
    }
    out.scenario_checks.push_back(e.info->name);
  };
  if (names.empty()) {
    for (const auto& e : entries_) take(e);
    return out;
  }
  for (const auto& name : names) {
    const entry* e = find(name);
    if (!e) return core::fail(name);
    take(*e);
  }
  // Scenarios run in catalogue order whatever order they were named in.
  std::stable_sort(out.scenarios.begin(), out.scenarios.end(),
                   [this](const scenario* a, const scenario* b) {
                     auto at = [this](const scenario* s) {
                       return std::find_if(entries_.begin(), entries_.end(),
                                           [s](const entry& e) { return e.procedure == s; }) -
                              entries_.begin();
                     };
                     return at(a) < at(b);
                   });
  return out;
}

}  // namespace conform::harness
