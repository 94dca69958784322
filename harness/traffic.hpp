#pragma once
// A client's recorded traffic, as the client rules judge it (`conform
// certify`): every request the client sent, in order, with its times, what
// it got back, and what adversity the certification server scripted for it;
// each matched once to the operation of the description it calls, its query
// decoded and its credential named. And the third kind of check: a traffic
// check, a pure function of the whole recording that reports to the run's
// one results sink (results.hpp).

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/check.hpp"
#include "http/message.hpp"
#include "openapi/model.hpp"

namespace conform::harness {

class results_sink;

/// A credential of the target profile, as the traffic names it.
struct traffic_credential {
  std::string name;  // the profile's name ("partner")
  /// The profile's `scheme:`: a scheme's x-credential label ("org_token"),
  /// its kind when it has none ("bearer"), or its key.
  std::string kind;
  std::string secret;  // compared, never printed
};

/// One request the client sent and what it got.
struct traffic_exchange {
  std::uint64_t seq = 0;                  // 1-based, arrival order
  std::chrono::microseconds sent{0};      // arrival, since the recording started
  std::chrono::microseconds answered{0};  // the answer (or the close) handed to the socket
  http::request request;  // target relative to the base path, with the query as sent
  unsigned status = 0;    // 0: no answer (the connection was closed)
  std::vector<std::pair<std::string, std::string>> response_headers;
  std::string response_body;
  std::string adversity;         // "" or what was scripted: "rate_limited", "server_error", ...
  std::string adversity_detail;  // one line
  int processed_status = 0;      // connection_dropped: the status the server had decided

  // Filled by annotate():
  const openapi::operation* op = nullptr;  // nullptr: no operation of the description
  std::string path;                        // the target without its query, decoded
  std::vector<std::pair<std::string, std::string>> query;  // decoded, in order
  std::map<std::string, std::string> path_params;
  /// The kind_name() of the scheme whose header it came in by ("org_token").
  std::optional<std::string> credential_kind;
  std::string credential;         // the profile's name; "" when not one of the profile's
  std::string credential_prefix;  // a key's first characters up to its last '_' ("pk_test_")
  /// Every credential header sent (each scheme's header, a repeated one
  /// again, an empty one too), by name as the description spells it.
  std::vector<std::string> credential_headers;

  /// The first value of query parameter `name`, or nullptr.
  const std::string* query_value(std::string_view name) const;
  /// "org_token (partner)", "bearer (viewer)", "none", as reports name auth models.
  std::string auth_model() const;
  /// The response header `name` (case-insensitive), or nullptr.
  const std::string* response_header(std::string_view name) const;
  /// True for a 2xx answer.
  bool succeeded() const { return status >= 200 && status < 300; }
};

/// One adversity the certification server planned, and the request it met.
struct planned_adversity {
  std::string kind;   // "rate_limited", "server_error", "connection_dropped", "outage", "slow"
  std::string where;  // the class of request it meets: "the first keyed write (...)"
  std::string what;   // what it does
  std::uint64_t met_at = 0;  // the seq of the request it met; 0: never met
};

/// The whole recording and what it is judged against.
struct traffic {
  const openapi::api_spec* spec = nullptr;
  std::string environment;  // the server's: "sandbox"
  std::vector<traffic_credential> credentials;
  std::vector<traffic_exchange> exchanges;
  std::uint64_t seed = 0;
  /// The adversity the server planned (empty: none, or not known).
  std::vector<planned_adversity> planned;
};

/// Matches every exchange to its operation, decodes its path and query and
/// names its credential (secrets are compared, never kept elsewhere).
void annotate(traffic& t);

/// One line of evidence: "#12 at 1.204 s: POST /billing/allocate-credits
/// [Idempotency-Key: k1, X-Tenant-Id: 101] as org_token (partner) -> 503
/// (scripted server_error)". Credentials appear by name, never by value.
std::string describe(const traffic& t, const traffic_exchange& e);

/// Same request: method, target, tenant header and body equal (the
/// credential and the Idempotency-Key aside), bodies as a server reads them
/// (core::same_body: multipart parts whatever the boundary, urlencoded
/// fields however encoded).
bool same_request(const traffic_exchange& a, const traffic_exchange& b);

/// The request's effective wait before `later`: from the answer to `earlier`
/// to the arrival of `later`.
std::chrono::microseconds gap(const traffic_exchange& earlier, const traffic_exchange& later);

/// A rule's level: a certificate of level `core` needs every core rule
/// exercised and kept; `extended` needs every rule.
enum class rule_level : std::uint8_t { core, extended };
std::string_view to_string(rule_level l);
std::optional<rule_level> parse_rule_level(std::string_view s);

/// The rule was broken: `evidence` the exchanges that show it (the last one
/// is where the cell goes), `expected` what the description says, `seen` what
/// the client did, `cause` a short stable key.
struct traffic_violation {
  std::vector<const traffic_exchange*> evidence;
  std::string expected;
  std::string seen;
  std::string cause;
};

/// What one scripted adversity came to, as the rule that owns it judged.
struct adversity_judged {
  const traffic_exchange* at = nullptr;  // the request that met it
  bool survived = false;
  std::string outcome;  // "retried after 1.002 s; answered 200 at #7"
};

/// One rule judging a traffic: each instance it looks at (a 429, a retry
/// chain, a traversal, a request) is held, broken or not exercised, and the
/// rule reports each, with the adversity it owns, through this.
class traffic_judgement {
 public:
  traffic_judgement(const traffic& t, results_sink& sink, std::string check);

  const std::string& check() const { return check_; }
  /// The rule held for the instance that ends at `e`.
  void held(const traffic_exchange& e);
  /// The rule was broken.
  void broken(const traffic_violation& v);
  /// An instance the traffic did not let the rule judge (a 429 after which
  /// the client sent nothing), and why.
  void not_exercised(const traffic_exchange& e, std::string why);
  /// Whether the client got past the scripted adversity met at `e`.
  void adversity(const traffic_exchange& e, bool survived, std::string outcome);

  std::uint64_t held_count() const { return held_; }
  std::uint64_t broken_count() const { return broken_; }
  std::uint64_t not_exercised_count() const { return not_exercised_; }
  /// The first reason an instance was not exercised ("" when none was).
  const std::string& first_not_exercised() const { return first_why_; }
  const std::vector<adversity_judged>& adversity_judged_list() const { return adversity_; }

 private:
  const traffic& t_;
  results_sink& sink_;
  std::string check_;
  std::uint64_t held_ = 0, broken_ = 0, not_exercised_ = 0;
  std::string first_why_;
  std::vector<adversity_judged> adversity_;
};

/// A check of a client's recorded traffic.
struct traffic_check {
  check_info info;
  rule_level level = rule_level::core;
  /// What traffic exercises it, for "not exercised: ..." ("a call to an
  /// operation whose x-idempotency is required").
  std::string exercised_by;
  /// Judges `t`: reports each instance and each adversity it owns to `j`.
  std::function<void(const traffic& t, traffic_judgement& j)> run;
  /// The adversity kinds whose survival this rule judges ("rate_limited"):
  /// one planned and not met leaves the rule not exercised.
  std::vector<std::string> owns = {};
  /// The operations this rule can judge a call of (a cursor list, an
  /// operation that takes an Idempotency-Key); empty: any. A partner's scope
  /// with none of them leaves the rule "not applicable", which is not "not
  /// exercised" (docs/certification.md, "The scope").
  std::function<bool(const openapi::operation&)> applies = {};
};

/// The rule held for exchange `e`.
void traffic_pass(results_sink& sink, const traffic_exchange& e, std::string_view check);

void traffic_fail(results_sink& sink, const traffic& t, std::string_view check,
                  const traffic_violation& v);

/// The credential secrets of `t` in `text` replaced by "<secret of NAME>".
std::string redact(std::string text, const traffic& t);

}  // namespace conform::harness
