#pragma once
// Reading the effect an idempotent operation declares (x-idempotency
// `effect`): the field of one item of another operation's list, found by the
// value the request body names. A replay that moves it again had a second
// effect.

#include <boost/json/value.hpp>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/outcome.hpp"
#include "harness/scenario.hpp"

namespace conform::suites::idempotency {

/// A decimal amount in millionths: exact for the decimal strings and
/// integers an amount is written as.
using micros = std::int64_t;

/// A JSON number or a decimal string ("250.00") in millionths; nullopt for
/// anything else (more than six decimals, not a number).
std::optional<micros> parse_amount(const boost::json::value& v);

/// "+1.25", "-0.5", "0".
std::string format_change(micros change);

/// One reading of the effect field.
struct reading {
  std::optional<micros> value;  // nullopt: not read (see why)
  std::string why;
  const harness::probe* where = nullptr;  // the answer the value was read from
};

/// Reads the declared effect of one request body, through the effect's list
/// operation with a credential that sees the same tenant.
class effect_reader {
 public:
  /// A reader for `op`'s effect of request `body` sent under `auth` (nullptr
  /// when the operation declares no effect), or why it cannot be read.
  static core::outcome<std::unique_ptr<effect_reader>> make(harness::scenario_context& ctx,
                                                            const openapi::operation& op,
                                                            const harness::auth_choice& auth,
                                                            std::string_view body);

  /// The field's value now. The probes it sent live as long as the reader.
  reading read(harness::scenario_context& ctx);

  /// "<field> of the item with <match field> <value> in <operation id>", for messages.
  const std::string& what() const { return what_; }

 private:
  effect_reader() = default;

  const openapi::operation* list_ = nullptr;
  harness::auth_choice auth_;
  generators::generated_request base_;
  std::string match_pointer_, match_value_, field_pointer_, what_;
  std::deque<harness::probe> probes_;
};

}  // namespace conform::suites::idempotency
