// Runs issue 23 made possible, end to end through `conform run`: an OpenAPI
// 3.2 description with QUERY, additionalOperations, in: querystring and
// sequential media, against the stub written from it (no false alarm, and
// its planted deviations found); and mutual TLS against a local server that
// demands a client certificate made at test time.
#include <gtest/gtest.h>

#include <httplib.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli.hpp"
#include "tests/support/report_server.hpp"
#include "tests/support/servers.hpp"
#include "tests/cli/support.hpp"

namespace conform::cli {
namespace {

using conform::test_support::contains;
using conform::test_support::run;

namespace fs = std::filesystem;
using test_support::report_fault;
using test_support::report_server;

const std::string data = std::string(CONFORM_TEST_DATA_DIR) + "/../../openapi/data/";
const std::string reports_yaml = data + "v32/reports.yaml";

class scratch {
 public:
  scratch() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("conform-reach-run-") + info->test_suite_name() + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~scratch() { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
    return path(name);
  }

 private:
  fs::path dir_;
};

/// The cells of a JSON report, by operation id: (passed, failed) summed.
std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> cells_of(const std::string& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> out;
  const auto v = boost::json::parse(text.str());
  for (const auto& c : v.at("cells").as_array()) {
    auto& slot = out[std::string(c.at("operation_id").as_string())];
    slot.first += c.at("passed").to_number<std::uint64_t>();
    slot.second += c.at("failed").to_number<std::uint64_t>();
  }
  return out;
}

// ---------------------------------------------------------------- OpenAPI 3.2

TEST(open_api32_run, the_fixture_runs_against_its_stub_with_no_false_alarm) {
  report_server server;
  scratch dir;
  const auto profile = dir.write("p.yaml", server.profile_yaml());
  const auto json = dir.path("r.json");
  const auto r =
      run({"--spec", reports_yaml, "--profile", profile, "--seed", "7", "--examples", "6",
           "--workers", "2", "--json", json, "--no-progress", "--allow-destructive"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  const auto cells = cells_of(json);
  // Every operation was sent and judged, QUERY and LINK included.
  for (const char* id :
       {"searchReports", "listReports", "feedReports", "importReports", "linkReport"}) {
    ASSERT_TRUE(cells.count(id)) << id << "\n" << r.out;
    EXPECT_GT(cells.at(id).first, 0u) << id;
    EXPECT_EQ(cells.at(id).second, 0u) << id;
  }
}

TEST(open_api32_run, the_fixture_runs_with_url_and_a_header_too) {
  report_server server;
  const auto r = run({"--spec", reports_yaml, "--url", server.base_url(), "-H",
                      std::string("X-Api-Key: ") + test_support::report_key, "--seed", "3",
                      "--examples", "3", "--no-progress"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_FALSE(contains(r.out + r.err, test_support::report_key));
}

TEST(open_api32_run, an_item_that_breaks_the_item_schema_is_found) {
  report_server server(report_fault::bad_item);
  scratch dir;
  const auto r =
      run({"--spec", reports_yaml, "--profile", dir.write("p.yaml", server.profile_yaml()),
           "--seed", "7", "--examples", "3", "--include", "listReports", "--checks",
           "response_schema_conformance", "--no-progress"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "item 2: missing required property \"title\"")) << r.out;
}

TEST(open_api32_run, a_querystring_the_form_does_not_admit_must_be_refused) {
  report_server server(report_fault::takes_any_filter);
  scratch dir;
  const auto r =
      run({"--spec", reports_yaml, "--profile", dir.write("p.yaml", server.profile_yaml()),
           "--seed", "7", "--examples", "5", "--include", "listReports", "--checks",
           "negative_data_rejection", "--no-progress"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "(invalid_query_param querystring filter)")) << r.out;
  EXPECT_TRUE(contains(r.out, "the required querystring filter left out")) << r.out;
}

// ------------------------------------------------------------------ mutual TLS

/// An HTTPS server for 127.0.0.1 that refuses every handshake without a
/// client certificate signed by (here: equal to) `client_ca`.
std::unique_ptr<httplib::Server> mtls_server(const test_support::test_certificate& server_cert,
                                             const test_support::test_certificate& client_ca) {
  auto read_x509 = [](const std::string& pem) {
    BIO* b = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    X509* x = PEM_read_bio_X509(b, nullptr, nullptr, nullptr);
    BIO_free(b);
    return x;
  };
  X509* cert = read_x509(server_cert.cert_pem);
  BIO* kb =
      BIO_new_mem_buf(server_cert.key_pem.data(), static_cast<int>(server_cert.key_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(kb, nullptr, nullptr, nullptr);
  BIO_free(kb);
  X509_STORE* store = X509_STORE_new();
  X509* ca = read_x509(client_ca.cert_pem);
  X509_STORE_add_cert(store, ca);
  X509_free(ca);
  auto server = std::make_unique<httplib::SSLServer>(cert, key, store);
  X509_free(cert);
  EVP_PKEY_free(key);
  server->Get("/api/v1/accounts/([^/]+)", [](const httplib::Request& req, httplib::Response& res) {
    const std::string id = req.matches[1];
    if (id == "a1") {
      res.set_content(R"({"id":"a1","balance":12})", "application/json");
    } else {
      res.status = 404;
      res.set_content(R"({"error":"no such account"})", "application/json");
    }
  });
  return server;
}

constexpr const char* mtls_spec = R"(openapi: 3.1.0
info: { title: Accounts over mutual TLS, version: "1" }
security:
  - clientCert: []
paths:
  /accounts/{id}:
    get:
      operationId: getAccount
      parameters:
        - { name: id, in: path, required: true, schema: { type: string, pattern: '^[a-z0-9]{1,8}$' } }
      responses:
        '200':
          description: The account
          content:
            application/json:
              schema:
                type: object
                required: [id, balance]
                properties: { id: { type: string }, balance: { type: integer } }
        '404':
          description: No such account
          content:
            application/json:
              schema: { type: object, required: [error], properties: { error: { type: string } } }
components:
  securitySchemes:
    clientCert:
      type: mutualTLS
)";

class mutual_tls : public ::testing::Test {
 protected:
  mutual_tls()
      : server_cert_(test_support::make_self_signed_certificate("IP:127.0.0.1")),
        client_cert_(test_support::make_self_signed_certificate("DNS:client.conform.test")),
        runner_(mtls_server(server_cert_, client_cert_)) {
    spec_ = dir_.write("accounts.yaml", mtls_spec);
    dir_.write("server-ca.pem", server_cert_.cert_pem);
    dir_.write("client.pem", client_cert_.cert_pem);
    dir_.write("client-key.pem", client_cert_.key_pem);  // a key made for this test only
  }
  std::string profile(const std::string& credentials) {
    return dir_.write("p.yaml", "base_url: https://127.0.0.1:" + std::to_string(runner_.port()) +
                                    "/api/v1\nenvironment: sandbox\nca_file: server-ca.pem\n" +
                                    credentials);
  }

  scratch dir_;
  test_support::test_certificate server_cert_, client_cert_;
  test_support::httplib_runner runner_;
  std::string spec_;
};

TEST_F(mutual_tls, a_run_passes_presenting_the_client_certificate) {
  const auto p = profile(
      "credentials:\n  - name: bank-client\n    scheme: mutual_tls\n"
      "    certificate: client.pem\n    key: client-key.pem\n");
  const auto r =
      run({"--spec", spec_, "--profile", p, "--seed", "5", "--examples", "4", "--no-progress"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "PASSED")) << r.out;
  EXPECT_FALSE(contains(r.out + r.err, "PRIVATE KEY")) << r.out << r.err;
}

TEST_F(mutual_tls, the_certificate_may_come_from_the_environment) {
  ::setenv("CONFORM_TEST_CLIENT_CERT", client_cert_.cert_pem.c_str(), 1);
  ::setenv("CONFORM_TEST_CLIENT_KEY", client_cert_.key_pem.c_str(), 1);
  const auto p = profile(
      "credentials:\n  - name: bank-client\n    scheme: clientCert\n"
      "    certificate: ${CONFORM_TEST_CLIENT_CERT}\n    key: ${CONFORM_TEST_CLIENT_KEY}\n");
  const auto r =
      run({"--spec", spec_, "--profile", p, "--seed", "5", "--examples", "2", "--no-progress"});
  ::unsetenv("CONFORM_TEST_CLIENT_CERT");
  ::unsetenv("CONFORM_TEST_CLIENT_KEY");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST_F(mutual_tls, without_a_certificate_the_operation_is_not_run) {
  const auto r = run({"--spec", spec_, "--profile", profile("credentials: []\n"), "--seed", "5",
                      "--examples", "2", "--no-progress"});
  // Nothing could be judged: said, and the run proves nothing (exit 2).
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "no client certificate")) << r.out;
}

TEST_F(mutual_tls, a_certificate_the_server_does_not_trust_stops_the_run_saying_so) {
  const auto stranger = test_support::make_self_signed_certificate("DNS:stranger.test");
  dir_.write("stranger.pem", stranger.cert_pem);
  dir_.write("stranger-key.pem", stranger.key_pem);  // made for this test only
  const auto p = profile(
      "credentials:\n  - name: stranger\n    scheme: mutual_tls\n"
      "    certificate: stranger.pem\n    key: stranger-key.pem\n");
  const auto r =
      run({"--spec", spec_, "--profile", p, "--seed", "5", "--examples", "2", "--no-progress"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "target unreachable: "));
  EXPECT_TRUE(contains(r.err,
                       "(with the client certificate of credential 'stranger': does the "
                       "server trust it?)"))
      << r.err;
}

TEST_F(mutual_tls, a_key_of_another_certificate_stops_the_run_before_it_starts) {
  const auto other = test_support::make_self_signed_certificate("DNS:other.test");
  dir_.write("other-key.pem", other.key_pem);
  const auto p = profile(
      "credentials:\n  - name: mismatched\n    scheme: mutual_tls\n"
      "    certificate: client.pem\n    key: other-key.pem\n");
  const auto r = run({"--spec", spec_, "--profile", p, "--no-progress"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err,
                       "credential 'mismatched': the client certificate and its private "
                       "key do not belong together"))
      << r.err;
}

}  // namespace
}  // namespace conform::cli
