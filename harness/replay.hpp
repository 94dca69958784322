#pragma once
// `conform replay`: the requests of a recorded run (recorded.hpp), sent again
// in their order to another target, each answer judged by the same
// per-exchange checks, and compared with the recorded answer in status,
// error code and schema (docs/recording.md). One connection, one request at
// a time: a target that keeps state sees the recorded order.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/catalogue.hpp"
#include "harness/listener.hpp"
#include "harness/run_report.hpp"
#include "harness/recorded.hpp"
#include "http/client.hpp"
#include "openapi/model.hpp"
#include "profile/loader.hpp"

namespace conform::harness {

/// One answer of the replay that differs from the recorded one.
struct replay_difference {
  std::uint64_t seq = 0;  // the recorded exchange's place, from 0
  std::string operation_id;
  std::string method_path;  // "GET /items/{id}"; the request's method and target when no operation
  std::string auth_model;
  std::string aspect;    // "status", "error code", "schema"
  std::string recorded;  // what the recording holds: "200", "ITEM_NOT_FOUND", "matches"
  std::string now;       // what came back now
  std::string curl;      // the request as sent now, secrets as ${NAME}
};

/// "#12 GET /items/{id} (org_token (all)): status 200 -> 500".
std::string to_string(const replay_difference& d);

struct replay_config {
  /// The per-exchange checks every answer is judged by.
  std::vector<const exchange_check*> checks;
  /// The check whose verdict says whether a body matches its schema
  /// (nullptr: schemas are not compared).
  const exchange_check* schema_check = nullptr;
  run_info info;
};

class replayer {
 public:
  /// `spec`, `target`, `client` and `events` must outlive the replayer.
  replayer(const openapi::api_spec& spec, const profile::target& target, replay_config config,
           http::client& client, listener& events, profile::env_lookup env = profile::process_env);
  ~replayer();
  replayer(const replayer&) = delete;
  replayer& operator=(const replayer&) = delete;

  /// Starts the report (run_started).
  void start();
  /// Sends `recorded`'s request again, its ${NAME}s resolved from the
  /// target's credentials and headers, else the environment, and judges the
  /// answer. The differences from the recorded answer; none when it could
  /// not be sent (a ${NAME} nobody holds: said as "not run").
  std::vector<replay_difference> replay(const recorded_exchange& recorded);
  /// Ends the report (run_finished) and returns it.
  run_report finish();

  std::uint64_t replayed() const { return replayed_; }
  std::uint64_t skipped() const { return skipped_; }
  /// Answers not compared because one of the two was the rate-limit status
  /// (x-rate-limit, else 429): it says nothing of the request.
  std::uint64_t rate_limited() const { return rate_limited_; }
  /// Answers not compared because the recorded one was the operation's
  /// in-progress conflict (x-idempotency conflict_status): it depends on
  /// two requests of one key being in flight together, which a replay,
  /// sending one request at a time, cannot recreate.
  std::uint64_t concurrent() const { return concurrent_; }

 private:
  struct state;
  std::unique_ptr<state> s_;
  std::uint64_t replayed_ = 0, skipped_ = 0, rate_limited_ = 0, concurrent_ = 0;
};

}  // namespace conform::harness
