#pragma once
// Reach: per operation and auth model, whether any valid request the run
// sent (a stateful step or a generated request) was answered 2xx, and what
// came back otherwise. Fed from every worker and the stateful phase;
// thread-safe. Folded into run_report::reach with why an operation was
// never reached.

#include <boost/json/value.hpp>

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "harness/auth.hpp"
#include "harness/run_report.hpp"
#include "http/message.hpp"
#include "openapi/model.hpp"

namespace conform::harness {

class reach_tracker {
 public:
  explicit reach_tracker(const openapi::api_spec& spec) : spec_(spec) {}

  /// A valid request of `op` went out under `auth` and got `status` (0:
  /// no answer) with error code `code` ("" when none). A request no check
  /// judged (`judged` false) reaches nothing: its 2xx is counted apart.
  void record(const openapi::operation& op, const auth_model& auth, unsigned status,
              const std::string& code, bool judged = true);
  /// The same, from what came back (the code read at x-error-envelope.code).
  void record(const openapi::operation& op, const auth_model& auth, const http::result& result,
              const boost::json::value* body);
  /// `op` under the auth model `label` was not sent at all, and why.
  void not_sent(const openapi::operation& op, const std::string& label, const std::string& why);

  /// True when `op` answered 2xx under `label`.
  bool reached(const openapi::operation& op, const std::string& label) const;

  /// Every (operation, auth model) recorded, operations in `order`, then
  /// auth models by label, with why the unreached were not reached.
  std::vector<operation_reach> fold(const std::vector<const openapi::operation*>& order) const;

 private:
  struct entry {
    operation_reach r;
    bool made_up = false;  // ids were made up (no fixture, no learned id)
    std::string not_sent;
  };
  const openapi::api_spec& spec_;
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, entry> entries_;
};

}  // namespace conform::harness
