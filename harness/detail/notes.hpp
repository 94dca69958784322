#pragma once
// The notes of a run's generated exchanges (run_report.hpp, `note`): kept once
// per (operation, auth model, check, cause), the one of the earliest plan
// item, so that the same run gives the same notes whatever its workers did.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "harness/run_report.hpp"
#include "http/message.hpp"

namespace conform::harness::detail {

class note_keeper {
 public:
  /// Keeps `n` (its check, operation, auth model, mode, text and cause set),
  /// seen on plan item `item` of the operation at `op_order` in the run's
  /// plan, with the request that showed it and what came back. Thread-safe.
  void keep(std::uint64_t item, std::size_t op_order, note n, const http::request& request,
            const http::result& result);
  /// The notes in report order (the plan's operations, then auth model,
  /// check and cause), each with its curl command (`curl_of`) and its texts
  /// passed through `redact`.
  std::vector<note> take(const std::function<std::string(const http::request&)>& curl_of,
                         const std::function<std::string(std::string)>& redact);

 private:
  struct kept {
    std::uint64_t item = 0;
    note n;
    http::request request;
  };
  std::mutex mutex_;
  std::map<std::tuple<std::size_t, std::string, std::string, std::string>, kept> kept_;
};

}  // namespace conform::harness::detail
