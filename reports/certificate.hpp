#pragma once
// A certificate a partner can hand over: a small statement of what was
// certified, signed with Ed25519 (OpenSSL). The file is JSON:
//   { "conform_certificate": 1, "algorithm": "Ed25519", "key_id": "<hex>",
//     "statement": { ... }, "signature": "<base64>" }
// and the signature covers the statement's canonical bytes (its fields in
// the documented order, docs/certification.md). Keys are PEM files; no
// function here ever returns or prints a private key except into the file
// keygen writes.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conform::reports {

/// What a certificate says.
struct certificate_statement {
  std::string description_title;
  std::string description_version;
  std::string description_hash;    // sha256 of the description's files
  std::string client;              // the client command's name, as given
  std::string level;               // "core" | "extended"
  std::vector<std::string> rules;  // the rules passed
  std::uint64_t seed = 0;
  std::string date;  // RFC 3339, UTC
  std::string conform_version;
};

/// The statement's canonical bytes (what is signed).
std::string canonical_statement(const certificate_statement& s);

/// A new Ed25519 key pair as PEM (PKCS#8 private key, SubjectPublicKeyInfo
/// public key); false with `error` set when OpenSSL refuses.
bool generate_key_pair(std::string& private_pem, std::string& public_pem, std::string& error);

/// The certificate file's text for `s`, signed with the PEM private key;
/// nullopt with `error` set when the key is not an Ed25519 private key.
std::optional<std::string> sign_certificate(const certificate_statement& s,
                                            std::string_view private_pem, std::string& error);

/// The result of verifying a certificate.
struct certificate_check {
  bool valid = false;
  std::string why;  // when not valid: what is wrong
  certificate_statement statement;
  std::string key_id;
};

/// Verifies `text` against the PEM public key.
certificate_check verify_certificate(std::string_view text, std::string_view public_pem);

/// A few lines saying what the certificate certifies.
std::string describe_certificate(const certificate_statement& s);

}  // namespace conform::reports
