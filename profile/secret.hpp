#pragma once
// A credential's secret value: printable only as "***", readable only by
// asking for it (the transport does), and named by an environment variable
// so that reproductions can refer to it without containing it.

#include <iosfwd>
#include <string>
#include <string_view>

namespace conform::profile {

/// Holds a secret. No implicit conversion to text; streaming prints "***".
class secret {
 public:
  secret() = default;
  /// A secret `value` held in (or, for an inline value, named after) `env_name`.
  secret(std::string value, std::string env_name, bool from_env);

  /// The value itself, for the transport only. Never log it.
  const std::string& reveal() const { return value_; }
  /// The variable that holds (or would hold) the value: "CONFORM_JWT_VIEWER".
  const std::string& env_name() const { return env_name_; }
  /// "$CONFORM_JWT_VIEWER", for curl lines and reports.
  std::string env_reference() const { return "$" + env_name_; }
  /// True when the value came from the environment (value_env).
  bool from_env() const { return from_env_; }
  /// True when no value is held.
  bool empty() const { return value_.empty(); }

  /// Compares values without revealing them.
  friend bool operator==(const secret& a, const secret& b) { return a.value_ == b.value_; }

 private:
  std::string value_;
  std::string env_name_;
  bool from_env_ = false;
};

/// Prints "***", never the value.
std::ostream& operator<<(std::ostream& os, const secret& s);

/// "CONFORM_SECRET_<NAME>": the variable name derived from a credential name
/// (upper-cased, every other character than A-Z and 0-9 replaced by '_').
std::string derived_env_name(std::string_view credential_name);

}  // namespace conform::profile
