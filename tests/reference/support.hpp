#pragma once
// Test support: a reference server per test suite and a small HTTP client
// that returns the parsed answer.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <httplib.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "reference/server.hpp"

namespace conform::reference::testing {

/// One answer: status, headers, raw body and the body parsed as JSON (null
/// when it does not parse).
struct answer {
  int status = 0;
  httplib::Headers headers;
  std::string raw;
  boost::json::value json;

  /// The header value or "".
  std::string header(const std::string& name) const;
  /// body.error_code or "".
  std::string code() const;
  /// body.data (object) — fails the test when absent.
  const boost::json::object& data() const;
};

using header_list = std::vector<std::pair<std::string, std::string>>;

/// A client of one server.
class client {
 public:
  explicit client(const server& srv);
  /// Sends `method path` (path under /api/v1 unless it starts with "//": then
  /// taken as is, minus one slash) with headers and an optional body.
  answer send(const std::string& method, const std::string& path, const header_list& headers = {},
              const std::string& body = "",
              const std::string& content_type = "application/json") const;
  /// Sends a multipart/form-data POST.
  answer multipart(const std::string& path, const header_list& headers,
                   const httplib::MultipartFormDataItems& items) const;

 private:
  int port_;
};

/// The string value of `v`, or "<not a string>".
std::string str(const boost::json::value& v);

/// Headers for a tenant key / partner key / bearer token.
header_list api_key(const std::string& secret);
header_list partner_key(const std::string& secret, const std::string& tenant = "");
header_list bearer(const std::string& token);

/// Fixture base: one server per suite (config from `config()`), fresh for every suite.
class server_test : public ::testing::Test {
 protected:
  static void start(server_config cfg = {});
  static void TearDownTestSuite();
  static server& srv();
  static client& http();
  /// A credential secret from the profile.
  static std::string cred(const std::string& name);
  /// A fixture id of "t1"/"t2"/"t3".
  static std::string fx(const std::string& tenant, const std::string& name);

 private:
  static std::unique_ptr<server> server_;
  static std::unique_ptr<client> client_;
};

}  // namespace conform::reference::testing
