#include <gtest/gtest.h>

#include <httplib.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "http/client.hpp"
#include "http/connection.hpp"
#include "tests/support/servers.hpp"

namespace conform::http {
namespace {

/// An httplib TLS server with a fresh self-signed certificate for 127.0.0.1
/// and for the name conform.test. Every test connects to 127.0.0.1: a
/// minimal machine may resolve no name at all (no /etc/hosts), so names are
/// checked by giving the one to verify (tls_options::server_name).
class tls_server : public ::testing::Test {
 protected:
  tls_server()
      : cert_(test_support::make_self_signed_certificate("IP:127.0.0.1,DNS:conform.test")),
        runner_(test_support::make_tls_server(cert_)) {
    runner_.server().Get("/api/v1/health", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"data":{"status":"ok"}})", "application/json");
    });
  }
  url base() {
    return *parse_url("https://127.0.0.1:" + std::to_string(runner_.port()) + "/api/v1").value;
  }
  static request health() {
    request r;
    r.target = "/health";
    return r;
  }

  test_support::test_certificate cert_;
  test_support::httplib_runner runner_;
};

TEST_F(tls_server, untrusted_certificate_is_a_tls_error_when_verifying) {
  connection c(base());
  const result r = c.send(health());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().what, transport_error::kind::tls) << r.error().message;
  EXPECT_NE(r.error().message.find("certificate verification failed"), std::string::npos)
      << r.error().message;
}

TEST_F(tls_server, verification_off_connects) {
  connection_options opts;
  opts.tls.verify = false;
  connection c(base(), opts);
  for (int i = 0; i < 3; ++i) {
    const result r = c.send(health());
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r.value().status, 200u);
  }
  EXPECT_EQ(c.connects(), 1u);
}

TEST_F(tls_server, trusted_ca_verifies_chain_and_ip_address) {
  client_options opts;
  opts.connection.tls.ca_pem = cert_.cert_pem;
  client c(base(), opts);
  const result r = c.send(0, health());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().body, R"({"data":{"status":"ok"}})");
}

TEST_F(tls_server, trusted_ca_verifies_host_name) {
  connection_options opts;
  opts.tls.ca_pem = cert_.cert_pem;
  opts.tls.server_name = "conform.test";  // in the certificate
  connection c(base(), opts);
  const result r = c.send(health());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().status, 200u);
}

TEST_F(tls_server, host_name_mismatch_is_a_tls_error) {
  connection_options opts;
  opts.tls.ca_pem = cert_.cert_pem;     // trusted, but issued for
  opts.tls.server_name = "other.test";  // 127.0.0.1 and conform.test only
  connection c(base(), opts);
  const result r = c.send(health());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().what, transport_error::kind::tls) << r.error().message;
  EXPECT_NE(r.error().message.find("certificate verification failed"), std::string::npos)
      << r.error().message;
}

TEST_F(tls_server, ip_address_mismatch_is_a_tls_error) {
  connection_options opts;
  opts.tls.ca_pem = cert_.cert_pem;
  opts.tls.server_name = "127.0.0.2";  // an address the certificate does not carry
  connection c(base(), opts);
  const result r = c.send(health());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().what, transport_error::kind::tls) << r.error().message;
}

TEST(tls, missing_ca_file_is_a_tls_error_value) {
  connection_options opts;
  opts.tls.ca_file = "/nonexistent/ca.pem";
  connection c(*parse_url("https://127.0.0.1:1/api/v1").value, opts);
  request r;
  r.target = "/health";
  const result res = c.send(r);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().what, transport_error::kind::tls);
  EXPECT_NE(res.error().message.find("/nonexistent/ca.pem"), std::string::npos);
}

}  // namespace
}  // namespace conform::http

namespace conform::http {
namespace {

/// A TLS server that demands a client certificate signed by `client_ca`.
std::unique_ptr<httplib::Server> demanding(const test_support::test_certificate& server,
                                           const test_support::test_certificate& client_ca) {
  auto read = [](const std::string& pem) {
    BIO* b = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    X509* x = PEM_read_bio_X509(b, nullptr, nullptr, nullptr);
    BIO_free(b);
    return x;
  };
  X509* cert = read(server.cert_pem);
  BIO* kb = BIO_new_mem_buf(server.key_pem.data(), static_cast<int>(server.key_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(kb, nullptr, nullptr, nullptr);
  BIO_free(kb);
  X509_STORE* store = X509_STORE_new();
  X509* ca = read(client_ca.cert_pem);
  X509_STORE_add_cert(store, ca);
  X509_free(ca);
  auto s = std::make_unique<httplib::SSLServer>(cert, key, store);
  X509_free(cert);
  EVP_PKEY_free(key);
  s->Get("/api/v1/whoami", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("{}", "application/json");
  });
  return s;
}

class mutual_tls : public ::testing::Test {
 protected:
  mutual_tls()
      : server_(test_support::make_self_signed_certificate("IP:127.0.0.1")),
        client_(test_support::make_self_signed_certificate("DNS:client.conform.test")),
        runner_(demanding(server_, client_)) {}
  client_options options() const {
    client_options o;
    o.connection.tls.ca_pem = server_.cert_pem;
    return o;
  }
  url base() const {
    return *parse_url("https://127.0.0.1:" + std::to_string(runner_.port()) + "/api/v1").value;
  }
  static request whoami(std::string identity = "") {
    request r;
    r.target = "/whoami";
    r.client_identity = std::move(identity);
    return r;
  }

  test_support::test_certificate server_, client_;
  test_support::httplib_runner runner_;
};

TEST_F(mutual_tls, a_request_naming_the_identity_presents_its_certificate) {
  client_options o = options();
  o.identities.push_back({"bank", client_.cert_pem, client_.key_pem});
  client c(base(), o);
  const result r = c.send(0, whoami("bank"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().status, 200u);
  // Without naming it, the same client presents none and the server refuses the handshake.
  const result bare = c.send(0, whoami());
  ASSERT_FALSE(bare.ok());
}

TEST_F(mutual_tls, an_unknown_identity_is_a_tls_error_value) {
  client c(base(), options());
  const result r = c.send(0, whoami("nobody"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().what, transport_error::kind::tls);
  EXPECT_NE(r.error().message.find("no client certificate named 'nobody'"), std::string::npos);
}

TEST_F(mutual_tls, a_key_of_another_certificate_is_refused_before_any_connection) {
  const auto other = test_support::make_self_signed_certificate();
  tls_options t;
  t.client_cert_pem = client_.cert_pem;
  t.client_key_pem = other.key_pem;
  const auto mismatched = make_tls_context(t);
  ASSERT_FALSE(mismatched.ok());
  EXPECT_EQ(mismatched.error(),
            "the client certificate and its private key do not belong together");
  t.client_key_pem = "not a key";
  const auto unreadable = make_tls_context(t);
  ASSERT_FALSE(unreadable.ok());
  const std::string& why = unreadable.error();
  EXPECT_NE(why.find("private key"), std::string::npos);
  EXPECT_EQ(why.find("not a key"), std::string::npos);  // never the key's text
}

}  // namespace
}  // namespace conform::http
