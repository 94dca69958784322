// The phases before the exchanges: the stateful walk, which teaches the plan,
// and the scenario suites.

#include "harness/detail/engine.hpp"

namespace conform::harness::detail {

std::vector<const scenario*> shard_scenarios(const run_config& config) {
  const auto& all = config.checks.scenarios;
  if (config.shard_count <= 1) return all;
  std::vector<const scenario*> out;
  for (std::size_t j = 0; j < all.size(); ++j) {
    if (j % config.shard_count == config.shard_index - 1) out.push_back(all[j]);
  }
  return out;
}

void engine::stateful_phase() {
  report_.info.learned = target_->notes;
  if (!config_.stateful) return;
  // Its checks are judged in the shard that holds their suite; every shard learns.
  const auto mine = shard_scenarios(config_);
  const bool judges =
      std::any_of(mine.begin(), mine.end(), [](const scenario* s) { return s->stateful(); });
  gate_.phase_started({phase::stateful, 1});
  const auto t0 = clock::now();
  stateful::phase_options o;
  o.seed = config_.seed;
  o.operations = config_.operations;
  o.base = client_.base();
  o.client = client_.options();
  o.lanes = std::max(2u, config_.scenario_lanes);
  const auto& selection = config_.checks;
  const auto& all = selection.scenarios;
  const bool selected =
      std::any_of(all.begin(), all.end(), [](const scenario* s) { return s->stateful(); });
  for (const auto* s : all) {
    if (s->stateful()) o.checks.push_back(s->chain_checks);
  }
  // Every shard walks the same way, its checks' requests included, so that
  // the walks of the shards that do not judge it are the judging shard's:
  // their verdicts go nowhere.
  listener unheard;
  results_sink unjudged(spec_, unheard);
  o.results = !selected ? nullptr : judges ? &results_ : &unjudged;
  o.enabled = [&selection](std::string_view name) { return selection.enabled(name); };
  o.max_shrinks = config_.max_shrinks;
  o.reach = &reach_;
  o.guard = &guard_;
  // Its steps are judged as any answer once over the shards, like every
  // other exchange: where its checks are, else in the first shard.
  const bool steps_judged =
      config_.shard_count <= 1 || (selected ? judges : config_.shard_index == 1);
  o.observe = observer_for(phase::stateful, "stateful", steps_judged);
  o.judged = steps_judged && judges_answers();
  auto outcome = stateful::run_phase(spec_, *target_, o);
  learned_.emplace(std::move(outcome.learned));
  target_ = &*learned_;
  credentials_.emplace(spec_, *target_);
  report_.links = std::move(outcome.links);
  report_.info.learned.insert(report_.info.learned.end(), outcome.notes.begin(),
                              outcome.notes.end());
  stateful_requests_ = outcome.requests;
  if (!steps_judged) report_.counts.relearned = outcome.requests;
  stateful_retries_429_ = outcome.retries_429;
  add_time(&run_timings::transport, clock::now() - t0);
  gate_.phase_finished({phase::stateful});
}

void engine::scenario_phase() {
  const auto& selection = config_.checks;
  auto scenarios = shard_scenarios(config_);
  std::erase_if(scenarios, [](const scenario* s) { return s->stateful(); });
  if (scenarios.empty()) return;
  events_.phase_started({phase::scenarios, scenarios.size()});
  const auto t0 = clock::now();
  scenario_context ctx(spec_, *target_, config_.seed, config_.operations, client_.base(),
                       client_.options(), std::max(2u, config_.scenario_lanes),
                       config_.workflow_files);
  ctx.guard(&guard_);
  const check_enabled enabled = [&selection](std::string_view name) {
    return selection.enabled(name);
  };
  // One after another: a scenario reads state (a value, a resource's
  // status) that another's requests would move.
  for (const auto* s : scenarios) {
    if (target_gone()) break;  // the run stopped: watch() said why
    // Its requests are judged as any answer in cells of its own, which one
    // shard holds (the suite's).
    ctx.observe(observer_for(phase::scenarios, "scenario " + s->name));
    try {
      s->run(ctx, results_, enabled);
    } catch (const std::exception& ex) {
      // A scenario that throws is a harness fault: said, never a silent pass.
      for (const auto& c : s->checks) {
        if (enabled(c.name)) {
          results_.not_run(nullptr, "", c.name,
                           "the " + s->name + " scenario stopped: " + ex.what());
        }
      }
    }
  }
  scenario_requests_ = ctx.requests();
  scenario_retries_429_ = ctx.retries_429();
  add_time(&run_timings::transport, clock::now() - t0);
  events_.phase_finished({phase::scenarios});
}

}  // namespace conform::harness::detail
