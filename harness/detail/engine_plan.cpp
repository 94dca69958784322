// The plan: which (operation, auth model, mode) cells a run has, the coverage
// phase's cases, and what became of them.

#include "harness/detail/engine.hpp"

namespace conform::harness::detail {

void engine::plan() {
  const auto& checks = config_.checks.exchange;
  auth_.reserve(config_.operations.size());
  for (const auto* op : config_.operations) {
    auth_.push_back(credentials_->auth_models(*op, /*try_unverified=*/true));
    // An operation safe mode never sends: one reason for all its cells,
    // said once, and none of its requests counted as planned.
    if (auto why = guard_.never_sent(*op)) {
      ++report_.info.operations_held_back;
      for (auto& choice : auth_.back()) {
        if (!choice.not_run_why) choice.not_run_why = *why;
      }
    }
  }
  // This shard's (operation, auth model) pairs: all of them in a whole run.
  std::vector<std::vector<bool>> mine(auth_.size());
  for (std::size_t o = 0; o < auth_.size(); ++o) mine[o].assign(auth_[o].size(), true);
  if (config_.shard_count > 1) {
    std::vector<std::tuple<std::string_view, std::string, std::size_t, std::size_t>> pairs;
    for (std::size_t o = 0; o < auth_.size(); ++o) {
      for (std::size_t a = 0; a < auth_[o].size(); ++a) {
        pairs.emplace_back(config_.operations[o]->operation_id, auth_[o][a].model.label(), o, a);
      }
    }
    std::sort(pairs.begin(), pairs.end());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      mine[std::get<2>(pairs[i])][std::get<3>(pairs[i])] =
          i % config_.shard_count == config_.shard_index - 1;
    }
  }
  for (std::size_t o = 0; o < config_.operations.size(); ++o) {
    const auto* op = config_.operations[o];
    for (std::size_t a = 0; a < auth_[o].size(); ++a) {
      if (!mine[o][a]) continue;
      const auth_choice& choice = auth_[o][a];
      const std::string label = choice.model.label();
      // Which kinds can run: valid always; invalid when the description
      // gives something to break.
      std::optional<rc::Gen<generators::generated_request>> gens[2];
      std::string why[2];
      if (!choice.not_run_why) {
        for (auto kind : {request_kind::valid, request_kind::invalid}) {
          auto made = harness::make_generator(spec_, *op, choice, kind);
          if (made.gen) {
            gens[static_cast<int>(kind)] = std::move(*made.gen);
          } else {
            why[static_cast<int>(kind)] = made.why;
          }
        }
      }
      auto cell_of_check =
          std::make_shared<std::vector<results_sink::cell_id>>(checks.size(), nullptr);
      for (std::size_t ki = 0; ki < checks.size(); ++ki) {
        const exchange_check& k = *checks[ki];
        if (k.concerns && !k.concerns(spec_, *op)) continue;
        const bool valid_runs = gens[0].has_value(), invalid_runs = gens[1].has_value();
        const bool runs = (k.to != applies_to::invalid && valid_runs) ||
                          (k.to != applies_to::valid && invalid_runs);
        std::optional<std::string> not_run_why;
        if (choice.not_run_why) {
          not_run_why = *choice.not_run_why;
        } else if (!runs) {
          // A check of a kind that cannot run here: not a cell at all when the
          // description gives nothing to break; otherwise say why.
          const std::string& reason = k.to == applies_to::invalid ? why[1] : why[0];
          if (k.to == applies_to::invalid && reason.empty()) continue;
          not_run_why = reason.empty() ? "no request could be generated" : reason;
        }
        const auto id = results_.cell(op, label, k.info.name, results_sink::origin::exchanges);
        if (not_run_why) results_.not_run(id, std::move(*not_run_why), /*say=*/false);
        (*cell_of_check)[ki] = id;
      }
      if (choice.not_run_why) {
        results_.not_run({"*", op->operation_id, label, *choice.not_run_why});
        reach_.not_sent(*op, label, *choice.not_run_why);
        continue;
      }
      const std::size_t first_cell = cells_.size();
      for (int m = 0; m < 2; ++m) {
        if (!gens[m]) {
          if (!why[m].empty() && m == 0) results_.not_run({"*", op->operation_id, label, why[m]});
          continue;
        }
        cells_.push_back(
            {op, &choice, static_cast<request_kind>(m), std::move(*gens[m]), cell_of_check});
      }
      plan_coverage(o, choice, first_cell);
    }
  }
  coverage_outcomes_.resize(coverage_.size());
  planned_ = coverage_.size() + cells_.size() * static_cast<std::uint64_t>(config_.examples);
}

void engine::plan_coverage(std::size_t o, const auth_choice& choice, std::size_t first_cell) {
  // Without a per-exchange check nothing would judge the cases.
  if (!config_.coverage || config_.checks.exchange.empty()) return;
  if (constraints_.size() <= o) constraints_.resize(config_.operations.size());
  if (keywords_.size() <= o) keywords_.resize(config_.operations.size());
  const auto* op = config_.operations[o];
  auto cases = harness::make_coverage(spec_, *op, choice);
  auto& names = constraints_[o];
  for (std::uint32_t i = 0; i < cases.size(); ++i) {
    auto& c = cases[i];
    std::size_t constraint = std::string::npos;
    if (c.constraint != "valid") {
      auto it = std::find(names.begin(), names.end(), c.constraint);
      constraint = static_cast<std::size_t>(it - names.begin());
      if (it == names.end()) {
        names.push_back(c.constraint);
        keywords_[o].push_back(c.keyword);
      }
    }
    // The cell of the case's kind; a kind the random phase does not run
    // (nothing it could break) leaves the case uncovered, said in the report.
    std::optional<std::size_t> cell_index;
    for (std::size_t k = first_cell; k < cells_.size(); ++k) {
      if (cells_[k].kind == c.kind) cell_index = k;
    }
    if (!cell_index) continue;
    coverage_.push_back({*cell_index, i, o, constraint, std::move(c.gen)});
  }
}

void engine::fold_coverage() {
  std::vector<std::vector<std::string>> why(constraints_.size());
  std::vector<std::vector<bool>> covered(constraints_.size());
  for (std::size_t o = 0; o < constraints_.size(); ++o) {
    covered[o].assign(constraints_[o].size(), false);
    why[o].resize(constraints_[o].size());
  }
  for (std::size_t i = 0; i < coverage_.size(); ++i) {
    const auto& item = coverage_[i];
    if (item.constraint == std::string::npos) continue;
    if (coverage_outcomes_[i].sent) {
      covered[item.op_index][item.constraint] = true;
    } else if (why[item.op_index][item.constraint].empty()) {
      why[item.op_index][item.constraint] = coverage_outcomes_[i].why;
    }
  }
  for (std::size_t o = 0; o < constraints_.size(); ++o) {
    if (constraints_[o].empty()) continue;
    operation_coverage c;
    c.operation_id = config_.operations[o]->operation_id;
    c.method_path = config_.operations[o]->method_path();
    c.constraints = static_cast<std::uint32_t>(constraints_[o].size());
    for (std::size_t k = 0; k < constraints_[o].size(); ++k) {
      const std::string& keyword = keywords_[o][k];
      auto kc = std::find_if(c.by_keyword.begin(), c.by_keyword.end(),
                             [&](const auto& x) { return x.keyword == keyword; });
      if (kc == c.by_keyword.end()) kc = c.by_keyword.insert(kc, {keyword, 0, 0});
      ++kc->constraints;
      if (covered[o][k]) ++kc->covered;
      if (covered[o][k]) {
        ++c.covered;
      } else {
        c.uncovered.push_back(
            constraints_[o][k] + ": " +
            (why[o][k].empty() ? std::string("no request of its kind runs here") : why[o][k]));
      }
    }
    report_.coverage.push_back(std::move(c));
  }
}

}  // namespace conform::harness::detail
