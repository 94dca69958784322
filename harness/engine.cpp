#include "harness/engine.hpp"

#include "core/text.hpp"
#include "harness/detail/engine.hpp"
#include "openapi/provenance.hpp"

namespace conform::harness {
namespace detail {

void engine::add_time(std::chrono::nanoseconds run_timings::*field, clock::duration d) {
  std::lock_guard lock(mutex_);
  report_.timings.*field += std::chrono::duration_cast<std::chrono::nanoseconds>(d);
}

run_report engine::run() {
  const auto start = clock::now();
  started_ = start;
  report_.info = config_.info;
  {
    auto suites = shard_scenarios(config_);
    report_.info.scenarios = static_cast<std::uint32_t>(std::count_if(
        suites.begin(), suites.end(), [](const scenario* s) { return !s->stateful(); }));
  }
  if (config_.shard_count > 0) {
    report_.info.shard_index = config_.shard_index;
    report_.info.shard_count = config_.shard_count;
  }
  // The stateful phase first: what it learns (ids, tenants, scopes) goes
  // into the plan; its findings are held until the run has started.
  stateful_phase();
  plan();
  report_.info.coverage_planned = coverage_.size();
  events_.run_started({report_.info, planned_});
  for (const auto& n : config_.not_run_before) results_.not_run(n);
  for (const auto& c : config_.cells_not_run) {
    results_.not_run(results_.cell(c.op, c.auth_model, c.check, results_sink::origin::scenarios),
                     c.why, /*say=*/false);
  }
  gate_.open();
  scenario_phase();
  main_phase();
  shrink_phase();
  results_.fold_into(report_);
  report_.notes = notes_.take(
      [this](const http::request& r) { return http::to_curl(r, client_.base(), redactor_); },
      [this](std::string text) { return redact(std::move(text)); });
  report_.reach = reach_.fold(config_.operations);
  for (const auto& c : openapi::constraint_grounds(spec_)) {
    if (c.assumed()) report_.assumptions.push_back(c.text());
  }
  report_.counts.requests = requests_.load() + scenario_requests_ + stateful_requests_;
  report_.counts.transport_errors = transport_errors_.load();
  report_.counts.retries_429 = retries_429_.load() + scenario_retries_429_ + stateful_retries_429_;
  report_.timings.wall = std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - start);
  events_.run_finished({report_});
  return std::move(report_);
}

}  // namespace detail

std::uint64_t example_seed(std::uint64_t run_seed, std::string_view operation_id,
                           std::string_view auth_model, request_kind kind, std::uint32_t example) {
  std::uint64_t h = 14695981039346656037ull;
  h = core::fnv1a(operation_id, h);
  h = core::fnv1a("\x1f", h);
  h = core::fnv1a(auth_model, h);
  h = detail::mix(h ^ detail::mix(run_seed) ^ (static_cast<std::uint64_t>(kind) << 32) ^ example);
  return h;
}

run_report run(const openapi::api_spec& spec, const profile::target& target,
               const run_config& config, http::client& client, listener& events) {
  detail::engine e(spec, target, config, client, events);
  return e.run();
}

}  // namespace conform::harness
