#pragma once
// The checks of the stateful phase's chains, judged on every step of its
// walks (harness/stateful/walk.hpp). They need no extension: a POST to a
// collection that answered 2xx with an id created a resource (RFC 9110
// section 9.3.3), which the same credential can then read (`GET
// <collection>/{id}`) and find in the collection's list; a 2xx DELETE
// removed it (section 9.3.5), so a read then answers 404 or 410, or, where
// the description declares the resource's states (x-state-machines), shows a
// final one. A failing chain is shrunk (harness/stateful/shrink.hpp) to the
// shortest chain that still fails.

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/scenario.hpp"
#include "harness/stateful/walk.hpp"
#include "openapi/model.hpp"

namespace conform::suites::stateful {

inline constexpr std::string_view created_readable_check = "stateful_created_readable";
inline constexpr std::string_view created_listed_check = "stateful_created_listed";
inline constexpr std::string_view deleted_gone_check = "stateful_deleted_gone";

/// The observer that judges the checks on every step of a walk; one per
/// stateful phase (scenario::chain_checks makes it).
class chain_checks final : public harness::stateful::observer {
 public:
  explicit chain_checks(const harness::chain_judging& judging)
      : results_(judging.results), enabled_(judging.enabled), max_shrinks_(judging.max_shrinks) {}

  void after(harness::stateful::session& s, const harness::stateful::actor& a,
             std::vector<harness::stateful::step>& log, std::size_t index) override;

 private:
  /// created_readable (created.cpp): a read of a created id.
  void judge_read(harness::stateful::session& s, const harness::stateful::actor& a,
                  std::vector<harness::stateful::step>& log, std::size_t index);
  /// created_listed (created.cpp): the collection's list after a create.
  void judge_listed(harness::stateful::session& s, const harness::stateful::actor& a,
                    std::vector<harness::stateful::step>& log, std::size_t index);
  /// deleted_gone (deleted.cpp): a read after a delete.
  void judge_deleted(harness::stateful::session& s, const harness::stateful::actor& a,
                     std::vector<harness::stateful::step>& log, std::size_t index);

  harness::results_sink& results_;
  harness::check_enabled enabled_;
  unsigned max_shrinks_;
  /// Ids a 2xx DELETE removed, per actor label: a later read of one judges
  /// no created resource.
  std::map<std::string, std::set<std::string>> deleted_;
};

/// The run's operation `method path`, or nullptr.
const openapi::operation* find_op(const harness::stateful::session& s, http::verb method,
                                  const std::string& path);

/// The collection path and the id parameter of `path` when it is
/// "<collection>/{id}", else nullopt.
std::optional<std::pair<std::string, std::string>> item_path(const std::string& path);

/// True when `p` can be judged (an answer came back, not rate-limited).
bool judgeable(const harness::stateful::session& s, const harness::probe& p);

/// The steps of `chain` (indices into `log`), in order.
std::vector<harness::stateful::step> steps_of(const std::vector<harness::stateful::step>& log,
                                              const std::vector<std::size_t>& chain);

}  // namespace conform::suites::stateful
