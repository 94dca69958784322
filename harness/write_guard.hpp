#pragma once
// The write guard: what keeps a run from harming data it did not create.
// In safe mode (a target people keep: a profile or --url without
// --allow-destructive or `disposable: true`) no request writes to a resource
// the run did not create: no PUT, PATCH or DELETE on it, no POST to its
// sub-paths (an action such as /things/{id}/launch), and no DELETE that
// could match many (on a collection path, filtered or not; a DELETE that names
// one resource matches that one, whatever its query), and no POST that is not
// documented to create (x-creates, a 201, a Location, an item path below it): an
// action whose effect the description does not tell (`POST /kv/deleterange`,
// `POST /auth/disable` on an RPC-style API) may change anything. A
// resource is created in the run when a 2xx answer to a POST (or a PUT that
// answered 201) sent in this run named it: by its Location, or by the
// record id of the answer's body. Resources read from lists and the
// profile's fixtures stay read-only, unless the profile marks a fixture
// writable (`writable:` under its tenant).
//
// Every send of a run passes through one guard (the stateful walk, the
// scenarios, coverage, the random phase, shrinking), which learns what the
// answers created. Thread-safe.

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/run_report.hpp"
#include "http/message.hpp"
#include "openapi/model.hpp"
#include "profile/profile.hpp"

namespace conform::harness {

class write_guard {
 public:
  /// A guard for runs against `spec` in `mode`; `base_path` is the target's
  /// ("/api/v1": a Location carries it), `writable` the ids of the fixtures
  /// the profile lets the run write to.
  write_guard(const openapi::api_spec& spec, write_mode mode, std::string base_path = {},
              std::set<std::string> writable = {});
  /// Operations the user says only read (`conform run --read-only`): sent in
  /// safe mode whatever their method.
  void read_only(std::set<const openapi::operation*> ops) { read_only_ = std::move(ops); }

  write_mode mode() const { return mode_; }
  /// Why `req` must not be sent ("safe mode: ..."), or nullopt. `op` is the
  /// operation it was built for; nullptr: the one its method and path match.
  std::optional<std::string> refusal(const openapi::operation* op, const http::request& req) const;
  /// Why no request of `op` is ever sent in this mode, whatever the run
  /// learns (safe mode: a POST not documented to create, a PUT, PATCH or
  /// DELETE with no resource to name), or nullopt. The same words as
  /// `refusal` gives each of its requests.
  std::optional<std::string> never_sent(const openapi::operation& op) const;
  /// Learns what the answer `res` to `req` created (nothing unless 2xx).
  void learn(const openapi::operation* op, const http::request& req, const http::result& res);
  /// The paths ("/things/42") created so far, in order.
  std::vector<std::string> created() const;

 private:
  /// Why a body that names an existing resource by an x-writes property
  /// must not be sent (the request changes that resource), or nullopt.
  /// Why a write of `method` to `op`, whose path names no resource, must
  /// not be sent (nullopt: a documented create). `filtered`: a DELETE with
  /// a query.
  std::optional<std::string> without_resource(const openapi::operation& op, http::verb method,
                                              const std::string& where, bool filtered) const;
  std::optional<std::string> body_reference_refusal(const openapi::operation& op,
                                                    const http::request& req,
                                                    const std::string& where) const;
  /// What the guard asks of an operation for every request of it, worked
  /// out once per operation of the description.
  struct op_facts {
    std::vector<std::size_t> resources;  // its template segments that name a resource
    bool creates = false;                // a POST documented to create
    bool body_writes = false;            // a body property has x-writes
    std::string record_id;               // where a create's answer has the new id
  };
  static op_facts facts_for(const openapi::api_spec& spec, const openapi::operation& op);
  /// `op`'s facts: kept ones for an operation of the description, else
  /// worked out into `scratch`.
  const op_facts& facts(const openapi::operation& op, op_facts& scratch) const;

  const openapi::api_spec& spec_;
  write_mode mode_;
  std::string base_path_;
  std::set<std::string> writable_;
  std::set<const openapi::operation*> read_only_;
  mutable std::mutex mutex_;
  std::set<std::string> created_;
  std::map<const openapi::operation*, op_facts> facts_;  // every operation of spec_
};

/// The ids of the fixtures `t`'s tenants mark writable.
std::set<std::string> writable_ids(const profile::target& t);

/// True for a method that may change the target: not GET, HEAD, OPTIONS,
/// TRACE or QUERY.
bool writes(const http::request& req);

/// The operation of `spec` whose method and path template match `req`
/// (else one of any method on that path: a 405 probe writes where it points)
/// (the one with the most literal segments), or nullptr.
const openapi::operation* operation_written(const openapi::api_spec& spec,
                                            const http::request& req);

}  // namespace conform::harness
