#include "suites/stateful/stateful.hpp"

#include <memory>

#include "harness/stateful/learn.hpp"
#include "suites/stateful/checks.hpp"

namespace conform::suites {
namespace stateful {

const openapi::operation* find_op(const harness::stateful::session& s, http::verb method,
                                  const std::string& path) {
  for (const auto* op : s.ctx.operations()) {
    if (op->method == method && op->path == path) return op;
  }
  return nullptr;
}

std::optional<std::pair<std::string, std::string>> item_path(const std::string& path) {
  if (path.empty() || path.back() != '}') return std::nullopt;
  const auto open = path.rfind("/{");
  if (open == std::string::npos || open == 0) return std::nullopt;
  return std::make_pair(path.substr(0, open), path.substr(open + 2, path.size() - open - 3));
}

bool judgeable(const harness::stateful::session& s, const harness::probe& p) {
  return !p.unjudgeable(s.spec);
}

std::vector<harness::stateful::step> steps_of(const std::vector<harness::stateful::step>& log,
                                              const std::vector<std::size_t>& chain) {
  std::vector<harness::stateful::step> steps;
  for (auto i : chain) steps.push_back(log[i]);
  return steps;
}

void chain_checks::after(harness::stateful::session& s, const harness::stateful::actor& a,
                         std::vector<harness::stateful::step>& log, std::size_t index) {
  const harness::stateful::step& st = log[index];
  if (!st.exchange || !judgeable(s, *st.exchange)) return;
  const auto& op = *st.plan.op;
  if (op.method == http::verb::get && enabled_(created_readable_check)) {
    judge_read(s, a, log, index);
  }
  if (st.succeeded() && harness::stateful::creates(op) && enabled_(created_listed_check)) {
    judge_listed(s, a, log, index);
  }
  if (st.succeeded() && op.method == http::verb::delete_) {
    if (auto item = item_path(op.path)) {
      if (auto id = st.path_value(item->second)) deleted_[a.label].insert(*id);
    }
    if (enabled_(deleted_gone_check)) judge_deleted(s, a, log, index);
  }
}

}  // namespace stateful

void register_stateful_checks(harness::check_catalogue& catalogue) {
  harness::scenario s;
  s.name = "stateful";
  s.checks = {
      {std::string(stateful::created_readable_check),
       "a resource a 2xx POST to a collection returned is readable by the same credential "
       "(GET <collection>/{id} does not answer 404)",
       "RFC 9110 section 9.3.3 (POST creates); OpenAPI links"},
      {std::string(stateful::created_listed_check),
       "a resource a 2xx POST to a collection returned appears in the collection's list for the "
       "same credential (every page walked)",
       "RFC 9110 section 9.3.3; x-pagination"},
      {std::string(stateful::deleted_gone_check),
       "after a 2xx DELETE, a read of the resource answers 404 or 410, or shows a final state",
       "RFC 9110 section 9.3.5 (DELETE removes); x-state-machines terminal"},
  };
  // Judged by the engine's stateful phase on its chains, never as a scenario.
  s.run = [](harness::scenario_context&, harness::results_sink&, const harness::check_enabled&) {};
  s.chain_checks = [](const harness::chain_judging& judging) {
    return std::make_unique<stateful::chain_checks>(judging);
  };
  catalogue.add(std::move(s));
}

}  // namespace conform::suites
