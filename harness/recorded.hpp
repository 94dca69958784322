#pragma once
// One exchange as `--record` keeps it (docs/recording.md): the request with
// every secret replaced by its ${NAME} reference, exactly as the curl lines
// of the reports name it, the answer redacted as the reports redact what a
// server sends back, the timings, and what each per-exchange check said.
// The engine emits one per request it sends (listener::exchange_recorded);
// `conform replay` reads them back and sends them again.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/run_report.hpp"
#include "http/curl.hpp"
#include "http/message.hpp"
#include "openapi/model.hpp"
#include "profile/profile.hpp"

namespace conform::harness {

/// What one per-exchange check said of one exchange.
struct recorded_verdict {
  std::string check;
  check_verdict::kind what = check_verdict::kind::pass;
  std::string cause;     // violation: the stable cause
  std::string expected;  // violation
  std::string seen;      // violation: what came back; not_run: why
};

/// "pass", "violation", "not_applicable", "not_run".
std::string_view to_string(check_verdict::kind k);
/// The reverse of to_string; nullopt for anything else.
std::optional<check_verdict::kind> parse_verdict_kind(std::string_view s);

/// One request sent and what came back. Holds no secret.
struct recorded_exchange {
  std::uint64_t seq = 0;     // the order requests were sent in, from 0
  std::string phase;         // "scenarios", "coverage", "exchanges", "shrinking"
  std::string operation_id;  // "" when the request matches no operation
  std::string method_path;
  std::string auth_model;  // "org_token (org-admin)", "none"
  std::string mode;        // "valid", "invalid: <what>", "scenario"
  std::string mutation;    // generators::request_mutation: "none", "invalid_body", ...
  std::string where;       // what the mutation broke: "query limit", "body /name"
  std::string base_url;    // the target: requests' targets are relative to it
  http::request request;   // secrets as ${NAME}
  std::optional<http::response> response;  // nullopt: no answer (`error` says why)
  std::string error;
  /// The ${NAME}s standing for secrets in `request`, each once: only these
  /// are resolved when it is sent again (a literal "${X}" a generator wrote
  /// stays as it is).
  std::vector<std::string> secrets;
  unsigned retries_429 = 0;
  std::chrono::system_clock::time_point started;
  std::vector<recorded_verdict> verdicts;  // per-exchange checks only, in catalogue order
};

/// The redacting half of --record: built once per run from the target.
class exchange_recorder {
 public:
  explicit exchange_recorder(const profile::target& target);

  /// `req` with every secret of the target as "${NAME}" (the names the curl
  /// lines use: NAME, NAME_BASIC64 for http basic); each name used is added
  /// to `names` (once) when given.
  http::request redact(const http::request& req, std::vector<std::string>* names = nullptr) const;
  /// `res` with every secret the server echoed replaced (redact_credentials).
  http::response redact(const http::response& res) const;

  /// The record of one exchange: `req` sent to `base` and what came back,
  /// both redacted. `op` may be nullptr (a request of no operation).
  recorded_exchange record(std::string_view phase, const openapi::operation* op,
                           std::string auth_model, std::string mode, const http::url& base,
                           const http::request& req, const http::result& result,
                           std::chrono::system_clock::time_point started,
                           std::vector<recorded_verdict> verdicts = {}) const;

 private:
  const profile::target& target_;
  http::secret_redactor redactor_;
};

/// The operation of `spec` that `req` (method, path and query relative to
/// the base URL) calls, by method and path template; nullptr when none.
const openapi::operation* operation_of(const openapi::api_spec& spec, const http::request& req);

}  // namespace conform::harness
