#pragma once
// A one-line curl command that reproduces a request, with secrets replaced
// by references to the environment variables that hold them.

#include <string>
#include <string_view>
#include <vector>

#include "http/message.hpp"
#include "http/url.hpp"

namespace conform::http {

/// Says which parts of a request are secrets and which variable names each.
class secret_redactor {
 public:
  /// Every occurrence of `secret` (in the URL, a header or the body) becomes
  /// "${env_name}" (e.g. the token after "Bearer "). Empty secrets are ignored.
  secret_redactor& secret_value(std::string secret, std::string env_name);
  /// The whole value of header `name` (case-insensitive) becomes "${env_name}".
  secret_redactor& secret_header(std::string name, std::string env_name);

  /// One piece of rendered text: literal, or a variable reference.
  struct piece {
    std::string_view text;
    bool variable = false;
  };
  /// Splits `text` into literal pieces and variable references.
  std::vector<piece> split(std::string_view text) const;
  /// The variable naming the whole value of header `name`, or nullptr.
  const std::string* header_variable(std::string_view name) const;

 private:
  std::vector<std::pair<std::string, std::string>> values_;   // secret -> env name
  std::vector<std::pair<std::string, std::string>> headers_;  // header -> env name
};

/// Quotes `text` as one POSIX shell word (single quotes; $'...' when it holds
/// control characters, so the command stays on one line).
std::string shell_quote(std::string_view text);

/// `curl -sS -g -X METHOD 'URL' -H '...' --data-binary '...'` for `req` sent to
/// `base`; secret values appear only as "${ENV}" references, never as text.
/// A request without Accept gets `-H 'Accept:'`, so curl sends none either.
std::string to_curl(const request& req, const url& base, const secret_redactor& redactor = {});

}  // namespace conform::http
