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

#include "core/outcome.hpp"

namespace conform::reports {

/// One file that identifies the certified client, and its digest.
struct certificate_artifact {
  std::string file;    // as named (--client-artifact), or the resolved path
  std::string sha256;  // hex
};

/// What a certificate says. Version 2 (what sign_certificate writes) binds
/// the client (its name, command and the digests of its files) and the
/// evidence (the transcript's digest); version 1 (still verified) named the
/// client command only.
struct certificate_statement {
  int version = 3;  // 3: names the partner's scope, the operations certified
  std::string description_title;
  std::string description_version;
  std::string description_hash;                 // sha256 of the description's files
  std::string client;                           // v2: the command as given; v1: its first word
  std::string client_name;                      // v2: --client-name, else the command
  std::vector<certificate_artifact> artifacts;  // v2
  std::string level;                            // "core" | "extended"
  std::vector<std::string> rules;               // the rules passed
  std::vector<std::string> operations;          // v3: the partner's scope (operationIds)
  std::uint64_t seed = 0;
  std::string transcript_sha256;  // v2: of the transcript's bytes ("" when none was kept)
  std::string date;               // RFC 3339, UTC
  std::string conform_version;
};

/// The SHA-256 of `bytes`, hex.
std::string sha256_hex(std::string_view bytes);

/// The SHA-256 of a file's bytes, hex, or why it cannot be read.
core::outcome<std::string> sha256_of_file(const std::string& path);

/// The statement's canonical bytes (what is signed).
std::string canonical_statement(const certificate_statement& s);

/// An Ed25519 key pair as PEM.
struct key_pair {
  std::string private_pem;  // PKCS#8
  std::string public_pem;   // SubjectPublicKeyInfo
};

/// A new Ed25519 key pair, or why OpenSSL refused.
core::outcome<key_pair> generate_key_pair();

/// The certificate file's text for `s`, signed with the PEM private key, or
/// why not (the key is not an Ed25519 private key).
core::outcome<std::string> sign_certificate(const certificate_statement& s,
                                            std::string_view private_pem);

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
