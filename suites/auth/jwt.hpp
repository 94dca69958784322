#pragma once
// JWS compact tokens (RFC 7515) taken apart and forged for the auth
// scenarios: the harness never needs a signing key, only tokens a server
// must refuse.

#include <optional>
#include <string>
#include <string_view>

namespace conform::suites::auth::jwt {

/// A compact token split into its three encoded segments.
struct compact_token {
  std::string header, payload, signature;  // base64url, as on the wire

  /// nullopt unless `token` is three segments whose header and payload
  /// decode to JSON objects.
  static std::optional<compact_token> parse(std::string_view token);
  std::string text() const { return header + "." + payload + "." + signature; }
};

/// The token with a signature of the same length that no key made (from `salt_hex`).
compact_token wrong_signature(const compact_token& t, std::string_view salt_hex);
/// The token with its signature emptied ("header.payload.").
compact_token signature_stripped(const compact_token& t);
/// The header's `alg` set to "none" and the signature emptied.
compact_token alg_none(const compact_token& t);
/// A claim of the payload changed, the old signature kept: `claim` set to
/// `value` when the claim is given, else a claim of the token's own altered.
compact_token payload_changed(const compact_token& t, std::string_view claim,
                              std::string_view value);

/// The value of a string claim of the payload; nullopt when the payload has
/// no such claim or it is not a string.
std::optional<std::string> string_claim(const compact_token& t, std::string_view claim);

/// True when the two tokens' payloads decode to different JSON: a forgery
/// that keeps the signature really changed what it signs.
bool payload_differs(const compact_token& a, const compact_token& b);

/// How a token that keeps a real signature is shown in reports: that
/// signature next to a readable payload would give the real token back, so
/// it is named, not written ("header.payload.SIGNATURE-OF-<env_reference>").
std::string shown_without_signature(const compact_token& t, std::string_view env_reference);

}  // namespace conform::suites::auth::jwt
