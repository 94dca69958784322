#include "reports/certificate.hpp"

#include "core/base64.hpp"
#include "core/text.hpp"

#include <boost/json.hpp>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>

#include <fstream>
#include <memory>

namespace conform::reports {

namespace {

namespace json = boost::json;

using pkey_ptr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using bio_ptr = std::unique_ptr<BIO, decltype(&BIO_free)>;
using md_ptr = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

std::string key_id_of(EVP_PKEY* key) {
  unsigned char raw[64];
  std::size_t len = sizeof raw;
  if (EVP_PKEY_get_raw_public_key(key, raw, &len) != 1) return "";
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(raw, len, digest);
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 8; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 15];
  }
  return out;
}

pkey_ptr read_key(std::string_view pem, bool is_private) {
  bio_ptr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
  EVP_PKEY* key = nullptr;
  if (bio) {
    key = is_private ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr)
                     : PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr);
  }
  if (key && EVP_PKEY_get_id(key) != EVP_PKEY_ED25519) {
    EVP_PKEY_free(key);
    key = nullptr;
  }
  return pkey_ptr(key, EVP_PKEY_free);
}

json::object statement_json(const certificate_statement& s) {
  json::array rules;
  for (const auto& r : s.rules) rules.emplace_back(r);
  json::object o;
  o["description"] = {{"title", s.description_title},
                      {"version", s.description_version},
                      {"sha256", s.description_hash}};
  if (s.version == 1) {
    o["client"] = s.client;
  } else {
    json::array artifacts;
    for (const auto& a : s.artifacts) artifacts.push_back({{"file", a.file}, {"sha256", a.sha256}});
    o["client"] = {
        {"name", s.client_name}, {"command", s.client}, {"artifacts", std::move(artifacts)}};
  }
  o["level"] = s.level;
  o["rules_passed"] = std::move(rules);
  if (s.version >= 3) {
    json::array ops;
    for (const auto& op : s.operations) ops.emplace_back(op);
    o["operations"] = std::move(ops);
  }
  o["seed"] = s.seed;
  if (s.version != 1) o["transcript_sha256"] = s.transcript_sha256;
  o["date"] = s.date;
  o["conform_version"] = s.conform_version;
  return o;
}

/// The statement back from its JSON; nullopt when a field is missing or of
/// the wrong type.
std::optional<certificate_statement> statement_from(const json::value& v, int version) {
  try {
    const json::object& o = v.as_object();
    if (o.size() != (version == 1 ? 7u : version == 2 ? 8u : 9u)) return std::nullopt;
    certificate_statement s;
    s.version = version;
    const json::object& d = o.at("description").as_object();
    s.description_title = d.at("title").as_string();
    s.description_version = d.at("version").as_string();
    s.description_hash = d.at("sha256").as_string();
    if (version == 1) {
      s.client = o.at("client").as_string();
    } else {
      const json::object& c = o.at("client").as_object();
      if (c.size() != 3) return std::nullopt;
      s.client_name = c.at("name").as_string();
      s.client = c.at("command").as_string();
      for (const auto& a : c.at("artifacts").as_array()) {
        const json::object& ao = a.as_object();
        if (ao.size() != 2) return std::nullopt;
        s.artifacts.push_back(
            {std::string(ao.at("file").as_string()), std::string(ao.at("sha256").as_string())});
      }
      s.transcript_sha256 = o.at("transcript_sha256").as_string();
    }
    s.level = o.at("level").as_string();
    for (const auto& r : o.at("rules_passed").as_array()) s.rules.emplace_back(r.as_string());
    if (version >= 3) {
      for (const auto& op : o.at("operations").as_array())
        s.operations.emplace_back(op.as_string());
    }
    s.seed = o.at("seed").to_number<std::uint64_t>();
    s.date = o.at("date").as_string();
    s.conform_version = o.at("conform_version").as_string();
    return s;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::string canonical_statement(const certificate_statement& s) {
  return json::serialize(statement_json(s));
}

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : digest) {
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  return out;
}

core::outcome<std::string> sha256_of_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return core::fail("cannot read '" + path + "'");
  }
  md_ptr ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    return core::fail("OpenSSL could not start a SHA-256");
  }
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    if (in.gcount() > 0) EVP_DigestUpdate(ctx.get(), buf, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) {
    return core::fail("cannot read '" + path + "' to its end");
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx.get(), digest, &len);
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 15];
  }
  return out;
}

core::outcome<key_pair> generate_key_pair() {
  pkey_ptr key(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"), EVP_PKEY_free);
  if (!key) {
    return core::fail("OpenSSL could not generate an Ed25519 key");
  }
  bio_ptr priv(BIO_new(BIO_s_mem()), BIO_free), pub(BIO_new(BIO_s_mem()), BIO_free);
  if (!priv || !pub ||
      PEM_write_bio_PrivateKey(priv.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1 ||
      PEM_write_bio_PUBKEY(pub.get(), key.get()) != 1) {
    return core::fail("OpenSSL could not write the key as PEM");
  }
  auto text = [](BIO* b) {
    char* data = nullptr;
    const long n = BIO_get_mem_data(b, &data);
    return std::string(data, static_cast<std::size_t>(n));
  };
  return key_pair{text(priv.get()), text(pub.get())};
}

core::outcome<std::string> sign_certificate(const certificate_statement& s,
                                            std::string_view private_pem) {
  pkey_ptr key = read_key(private_pem, true);
  if (!key) {
    return core::fail("the signing key is not an Ed25519 private key in PEM");
  }
  const std::string message = canonical_statement(s);
  md_ptr ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  unsigned char sig[64];
  std::size_t sig_len = sizeof sig;
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), sig, &sig_len,
                     reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1) {
    return core::fail("OpenSSL could not sign the certificate");
  }
  json::object file{{"conform_certificate", s.version},
                    {"algorithm", "Ed25519"},
                    {"key_id", key_id_of(key.get())},
                    {"statement", statement_json(s)},
                    {"signature", core::base64_encode(std::string_view(
                                      reinterpret_cast<const char*>(sig), sig_len))}};
  return json::serialize(file) + "\n";
}

certificate_check verify_certificate(std::string_view text, std::string_view public_pem) {
  certificate_check out;
  pkey_ptr key = read_key(public_pem, false);
  if (!key) {
    out.why = "the public key is not an Ed25519 public key in PEM";
    return out;
  }
  boost::system::error_code ec;
  const json::value file = json::parse(text, ec);
  if (ec || !file.is_object()) {
    out.why = "the certificate is not JSON";
    return out;
  }
  const json::object& o = file.as_object();
  const auto* version = o.if_contains("conform_certificate");
  const auto* algorithm = o.if_contains("algorithm");
  const auto* statement = o.if_contains("statement");
  const auto* signature = o.if_contains("signature");
  if (!version || !algorithm || !statement || !signature || !signature->is_string() ||
      !algorithm->is_string() || algorithm->as_string() != "Ed25519") {
    out.why =
        "the certificate lacks conform_certificate, algorithm Ed25519, statement or "
        "signature";
    return out;
  }
  if (!version->is_int64() || version->as_int64() < 1 || version->as_int64() > 3) {
    out.why = "conform_certificate is not 1 or 2 (a newer Conform wrote it?)";
    return out;
  }
  auto parsed = statement_from(*statement, static_cast<int>(version->as_int64()));
  if (!parsed) {
    out.why = "the statement does not have the fields of a Conform certificate";
    return out;
  }
  const auto sig = core::base64_decode(signature->as_string());
  const std::string message = canonical_statement(*parsed);
  md_ptr ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!sig || !ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
      EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(sig->data()), sig->size(),
                       reinterpret_cast<const unsigned char*>(message.data()),
                       message.size()) != 1 ||
      json::serialize(*statement) != message) {
    out.why =
        "the signature does not match the statement and this public key "
        "(tampered, or signed with another key)";
    return out;
  }
  out.valid = true;
  out.statement = std::move(*parsed);
  out.key_id = key_id_of(key.get());
  return out;
}

std::string describe_certificate(const certificate_statement& s) {
  std::string rules;
  for (const auto& r : s.rules) rules += "    " + r + "\n";
  std::string client;
  if (s.version == 1) {
    client = "client:       " + s.client + " (a version 1 certificate: the command's name only)\n";
  } else {
    client = "client:       " + s.client_name + "\n" + "command:      " + s.client + "\n";
    if (s.artifacts.empty()) client += "artifacts:    none\n";
    for (const auto& a : s.artifacts) {
      client += "artifact:     " + a.file + " (sha256 " + a.sha256 + ")\n";
    }
    client += "transcript:   " +
              (s.transcript_sha256.empty() ? std::string("not kept (no --transcript)")
                                           : "sha256 " + s.transcript_sha256) +
              "\n";
  }
  return client + "description:  " + s.description_title + " " + s.description_version +
         " (sha256 " + s.description_hash + ")\n" + "level:        " + s.level + "\n" +
         "seed:         " + std::to_string(s.seed) + "\n" + "date:         " + s.date + "\n" +
         "conform:      " + s.conform_version + "\n" +
         (s.version >= 3 ? "scope:        " + std::to_string(s.operations.size()) +
                               " operations: " + core::join(s.operations) + "\n"
                         : std::string("scope:        not named (a version " +
                                       std::to_string(s.version) + " certificate)\n")) +
         "rules passed: " + std::to_string(s.rules.size()) + "\n" + rules;
}

}  // namespace conform::reports
