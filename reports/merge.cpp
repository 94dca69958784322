#include "reports/merge.hpp"

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <tuple>

#include "reports/reach.hpp"

namespace conform::reports {
namespace {

using harness::run_info;
using harness::run_report;

/// The shards a report holds: its own, or those merged into it.
std::vector<std::uint32_t> shards_of(const run_info& info) {
  if (!info.merged_shards.empty()) return info.merged_shards;
  return {info.shard_index};
}

/// Why two reports are not of one run, or "" when they are.
std::string mismatch(const run_info& a, const run_info& b) {
  auto differ = [](const std::string& what, const std::string& x, const std::string& y) {
    return what + " differ (" + x + " and " + y + ")";
  };
  if (a.seed != b.seed) return differ("the seeds", std::to_string(a.seed), std::to_string(b.seed));
  if (a.shard_count != b.shard_count) {
    return differ("the shard counts", std::to_string(a.shard_count), std::to_string(b.shard_count));
  }
  if (a.spec_hash != b.spec_hash) {
    return differ("the descriptions", a.spec_file + " sha256 " + a.spec_hash,
                  b.spec_file + " sha256 " + b.spec_hash);
  }
  // The in-process reference listens on a new port each run: one target all the same.
  if (a.in_process_reference != b.in_process_reference ||
      (!a.in_process_reference && a.target != b.target)) {
    auto name = [](const run_info& i) {
      return i.in_process_reference ? "the in-process reference" : i.target;
    };
    return differ("the targets", name(a), name(b));
  }
  if (a.examples != b.examples) {
    return differ("the examples per cell", std::to_string(a.examples), std::to_string(b.examples));
  }
  if (a.checks != b.checks) return "the enabled checks differ";
  if (a.strict_assumptions != b.strict_assumptions) {
    return "one ran with --strict-assumptions and the other without";
  }
  if (a.tool_version != b.tool_version) {
    return differ("the conform versions", a.tool_version, b.tool_version);
  }
  return "";
}

/// One order that keeps every list's order (a topological merge). Where the
/// lists leave two keys unordered, the one placed earlier in its own list
/// (relative to that list's length), within the lower group, comes first.
template <typename Key, typename GroupOf>
std::vector<Key> merge_orders(const std::vector<std::vector<Key>>& lists, GroupOf group_of) {
  std::map<Key, std::size_t> id;
  std::vector<Key> keys;
  std::vector<std::tuple<std::size_t, double, std::size_t>> priority;  // group, place, id
  std::vector<std::set<std::size_t>> next;
  std::vector<std::size_t> indegree;
  for (const auto& list : lists) {
    std::size_t previous = static_cast<std::size_t>(-1);
    for (std::size_t i = 0; i < list.size(); ++i) {
      auto [it, fresh] = id.emplace(list[i], keys.size());
      const std::size_t k = it->second;
      if (fresh) {
        keys.push_back(list[i]);
        priority.emplace_back(group_of(list[i]), static_cast<double>(i) / list.size(), k);
        next.emplace_back();
        indegree.push_back(0);
      }
      if (previous != static_cast<std::size_t>(-1) && previous != k &&
          next[previous].insert(k).second) {
        ++indegree[k];
      }
      previous = k;
    }
  }
  std::priority_queue<std::tuple<std::size_t, double, std::size_t>,
                      std::vector<std::tuple<std::size_t, double, std::size_t>>, std::greater<>>
      ready;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (indegree[k] == 0) ready.push(priority[k]);
  }
  std::vector<Key> out;
  std::vector<bool> placed(keys.size(), false);
  while (!ready.empty()) {
    const std::size_t k = std::get<2>(ready.top());
    ready.pop();
    placed[k] = true;
    out.push_back(keys[k]);
    for (auto n : next[k]) {
      if (--indegree[n] == 0) ready.push(priority[n]);
    }
  }
  // Lists that disagree (reports edited by hand): the rest as first seen.
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (!placed[k]) out.push_back(keys[k]);
  }
  return out;
}

using cell_key = std::tuple<std::string, std::string, std::string>;  // operation, auth, check
using failure_identity = std::tuple<std::string, std::string, std::string, std::string>;  // + cause
using auth_pair = std::pair<std::string, std::string>;  // operation, auth model

/// Which shard each report holds, once all are known to be of one run, each
/// shard once, none missing; or why they cannot be merged.
core::outcome<std::map<std::uint32_t, std::string>> shard_holders(
    const std::vector<named_report>& shards) {
  std::map<std::uint32_t, std::string> holder;
  for (const auto& s : shards) {
    const run_info& info = s.report.info;
    if (info.shard_count == 0) {
      return core::fail(s.name +
                        " is not a shard's report (it has no run.shard: run with --shard K/N)");
    }
    if (auto why = mismatch(shards.front().report.info, info); !why.empty()) {
      return core::fail(shards.front().name + " and " + s.name + " are not of one run: " + why);
    }
    for (auto k : shards_of(info)) {
      if (k == 0 || k > info.shard_count) {
        return core::fail(s.name + ": shard " + std::to_string(k) + " of " +
                          std::to_string(info.shard_count) + " does not exist");
      }
      auto [it, fresh] = holder.emplace(k, s.name);
      if (!fresh) {
        return core::fail(it->second + " and " + s.name + " both hold shard " + std::to_string(k) +
                          "/" + std::to_string(info.shard_count));
      }
    }
  }
  const std::uint32_t count = shards.front().report.info.shard_count;
  std::string missing;
  for (std::uint32_t k = 1; k <= count; ++k) {
    if (!holder.count(k)) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
  }
  if (!missing.empty()) {
    return core::fail("no report of shard " + missing + " of " + std::to_string(count) +
                      ": a merge without it would leave that part of the run unproved");
  }
  return holder;
}

/// The merged run's facts: the first shard's, started when the first
/// started, with every shard's scenarios.
run_info merged_info(const std::vector<named_report>& shards,
                     const std::map<std::uint32_t, std::string>& holder) {
  run_info info = shards.front().report.info;
  info.shard_index = 0;
  info.merged_shards.clear();
  info.scenarios = 0;
  for (const auto& [k, name] : holder) info.merged_shards.push_back(k);
  for (const auto& s : shards) {
    info.started_at = std::min(info.started_at, s.report.info.started_at);
    info.scenarios += s.report.info.scenarios;
    // Every shard loaded the same description: each left out the same operations.
    info.skipped_operations = std::max(info.skipped_operations, s.report.info.skipped_operations);
  }
  return info;
}

/// Every shard's cells and failures, each key once with the counts added,
/// and the order each shard listed them in.
struct shard_cells {
  std::vector<std::vector<std::string>> op_lists;
  std::vector<std::vector<auth_pair>> pair_lists;
  std::vector<std::vector<cell_key>> cell_lists;
  std::vector<std::vector<failure_identity>> failure_lists;
  std::map<cell_key, harness::check_tally> tallies;
  std::map<failure_identity, harness::failure> failures;
};

shard_cells collect_shard_cells(const std::vector<named_report>& shards) {
  shard_cells all;
  for (const auto& s : shards) {
    auto& ops = all.op_lists.emplace_back();
    auto& pairs = all.pair_lists.emplace_back();
    auto& cells = all.cell_lists.emplace_back();
    for (const auto& t : s.report.tallies) {
      if (ops.empty() || ops.back() != t.operation_id) ops.push_back(t.operation_id);
      auth_pair pair{t.operation_id, t.auth_model};
      if (pairs.empty() || pairs.back() != pair) pairs.push_back(std::move(pair));
      cell_key key{t.operation_id, t.auth_model, t.check};
      cells.push_back(key);
      auto [it, fresh] = all.tallies.emplace(key, t);
      if (fresh) continue;
      auto& m = it->second;
      m.passed += t.passed;
      m.failed += t.failed;
      m.contradicted += t.contradicted;
      m.time += t.time;
      if (!m.not_run_why) m.not_run_why = t.not_run_why;
    }
    auto& fails = all.failure_lists.emplace_back();
    for (const auto& f : s.report.failures) {
      failure_identity key{f.operation_id, f.auth_model, f.check, f.cause};
      fails.push_back(key);
      auto [it, fresh] = all.failures.emplace(key, f);
      if (!fresh) it->second.occurrences += f.occurrences;
    }
  }
  return all;
}

/// The place of each (operation, auth model) in the merged report:
/// operations in an order every shard agrees with, the description's order
/// first when known, run-wide cells (no operation) leading; within an
/// operation, each auth model's cells together.
std::map<auth_pair, std::size_t> rank_auth_pairs(const shard_cells& all,
                                                 const std::vector<std::string>& operation_order) {
  std::map<std::string, std::size_t> described;
  for (std::size_t i = 0; i < operation_order.size(); ++i)
    described.emplace(operation_order[i], i + 1);
  const auto op_order = merge_orders(all.op_lists, [&](const std::string& op) {
    if (op.empty()) return std::size_t{0};
    auto it = described.find(op);
    return it == described.end() ? operation_order.size() + 1 : it->second;
  });
  std::map<std::string, std::size_t> op_rank;
  for (std::size_t i = 0; i < op_order.size(); ++i) op_rank.emplace(op_order[i], i);
  auto rank = [&](const std::string& op) {
    auto it = op_rank.find(op);
    return it == op_rank.end() ? op_order.size() : it->second;
  };
  const auto pair_order =
      merge_orders(all.pair_lists, [&](const auth_pair& p) { return rank(p.first); });
  std::map<auth_pair, std::size_t> pair_rank;
  for (std::size_t i = 0; i < pair_order.size(); ++i) pair_rank.emplace(pair_order[i], i);
  return pair_rank;
}

/// The cells, failures and notes of every shard, each once, in the merged
/// order: by (operation, auth model) rank, then as the shards listed them.
void merge_cells(const std::vector<named_report>& shards, const shard_cells& all,
                 const std::map<auth_pair, std::size_t>& pair_rank, run_report& out) {
  auto rank_of = [&](const auto& key) {
    auto it = pair_rank.find({std::get<0>(key), std::get<1>(key)});
    return it == pair_rank.end() ? pair_rank.size() : it->second;
  };
  for (const auto& key : merge_orders(all.cell_lists, rank_of)) {
    harness::check_tally t = all.tallies.at(key);
    // As a whole run folds a cell: one that judged something ran.
    const bool judged = t.passed > 0 || t.failed > 0 || t.contradicted > 0;
    if (judged) t.not_run_why.reset();
    t.nothing_judged = !t.not_run_why && !judged;
    out.counts.checks_passed += t.passed;
    out.counts.checks_failed += t.failed;
    out.counts.checks_contradicted += t.contradicted;
    if (t.not_run_why) ++out.counts.cells_not_run;
    out.tallies.push_back(std::move(t));
  }
  for (const auto& key : merge_orders(all.failure_lists, rank_of)) {
    out.failures.push_back(all.failures.at(key));
  }
  // Notes: one per key, the occurrences added, in the order of the failures'.
  std::vector<std::vector<failure_identity>> note_lists;
  std::map<failure_identity, harness::note> notes;
  for (const auto& s : shards) {
    auto& list = note_lists.emplace_back();
    for (const auto& n : s.report.notes) {
      failure_identity key{n.operation_id, n.auth_model, n.check, n.cause};
      list.push_back(key);
      auto [it, fresh] = notes.emplace(key, n);
      if (!fresh) it->second.occurrences += n.occurrences;
    }
  }
  for (const auto& key : merge_orders(note_lists, rank_of)) out.notes.push_back(notes.at(key));
}

/// What did not run (each once), the requests, errors and timings, and why
/// any shard was aborted.
void merge_run_totals(const std::vector<named_report>& shards, run_report& out) {
  std::set<std::tuple<std::string, std::string, std::string, std::string>> said;
  std::vector<std::string> aborted;
  for (const auto& s : shards) {
    for (const auto& n : s.report.not_runs) {
      if (said.emplace(n.check, n.operation_id, n.auth_model, n.why).second) {
        out.not_runs.push_back(n);
      }
    }
    const auto& c = s.report.counts;
    // A walk that only taught its shard is another shard's, counted there.
    out.counts.requests += c.requests - std::min(c.relearned, c.requests);
    out.counts.transport_errors += c.transport_errors;
    out.counts.retries_429 += c.retries_429;
    const auto& t = s.report.timings;
    out.timings.wall = std::max(out.timings.wall, t.wall);
    out.timings.generation += t.generation;
    out.timings.transport += t.transport;
    out.timings.checking += t.checking;
    if (s.report.aborted) {
      aborted.push_back(s.report.info.shard_label() + " (" + s.name + "): " + *s.report.aborted);
    }
  }
  if (!aborted.empty()) {
    std::string all;
    for (const auto& a : aborted) all += (all.empty() ? "" : "; ") + a;
    out.aborted = all;
  }
}

/// One operation's coverage seen by two shards: per keyword, as for the
/// whole, the most constraints any shard saw, covered when any shard
/// covered them (the uncovered lists meet).
void meet_coverage(harness::operation_coverage& m, const harness::operation_coverage& k) {
  m.constraints = std::max(m.constraints, k.constraints);
  for (const auto& b : k.by_keyword) {
    auto mb = std::find_if(m.by_keyword.begin(), m.by_keyword.end(),
                           [&](const auto& x) { return x.keyword == b.keyword; });
    if (mb == m.by_keyword.end()) {
      m.by_keyword.push_back(b);
      continue;
    }
    mb->constraints = std::max(mb->constraints, b.constraints);
    mb->covered = std::max(mb->covered, b.covered);
  }
  std::erase_if(m.uncovered, [&](const std::string& u) {
    return std::find(k.uncovered.begin(), k.uncovered.end(), u) == k.uncovered.end();
  });
}

/// Coverage: an operation whose auth models ran in several shards counts a
/// constraint covered when any shard covered it; in the merged cells' order.
void merge_coverage(const std::vector<named_report>& shards, run_report& out) {
  std::map<std::string, harness::operation_coverage> coverage;
  std::vector<std::string> coverage_order;
  auto keep_order = [&](const std::string& id) {
    if (std::find(coverage_order.begin(), coverage_order.end(), id) == coverage_order.end()) {
      coverage_order.push_back(id);
    }
  };
  for (const auto& t : out.tallies) keep_order(t.operation_id);
  for (const auto& s : shards) {
    for (const auto& k : s.report.coverage) {
      auto [it, fresh] = coverage.emplace(k.operation_id, k);
      keep_order(k.operation_id);
      if (!fresh) meet_coverage(it->second, k);
    }
  }
  for (const auto& id : coverage_order) {
    auto it = coverage.find(id);
    if (it == coverage.end()) continue;
    auto& m = it->second;
    m.covered = m.constraints - std::min<std::uint32_t>(
                                    m.constraints, static_cast<std::uint32_t>(m.uncovered.size()));
    out.coverage.push_back(std::move(m));
  }
}

}  // namespace

core::outcome<run_report> merge_reports(const std::vector<named_report>& shards,
                                        const std::vector<std::string>& operation_order) {
  if (shards.empty()) {
    return core::fail("no report to merge");
  }
  auto holder = shard_holders(shards);
  if (!holder) return core::fail(std::move(holder).error());

  run_report out;
  out.info = merged_info(shards, *holder);
  const shard_cells all = collect_shard_cells(shards);
  merge_cells(shards, all, rank_auth_pairs(all, operation_order), out);
  // One description for every shard: its assumptions are the first's.
  out.assumptions = shards.front().report.assumptions;
  merge_run_totals(shards, out);
  merge_coverage(shards, out);
  for (const auto& s : shards) merge_reach(s.report, out);
  return out;
}

}  // namespace conform::reports
