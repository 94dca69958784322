#pragma once
// A small server of the mini items API (data/mini.yaml) that answers
// correctly, or breaks the description in one chosen way, so that each check
// can be shown to fail where it should. Port 0, its own thread, no sleeps.

#include <boost/json.hpp>
#include <httplib.h>

#include <atomic>
#include <string>
#include <thread>

#include "schema/validator.hpp"
#include "tests/support/servers.hpp"

namespace conform::test_support {

enum class fault {
  none,
  undocumented_status,  // 418 on GET
  wrong_error_code,     // 404 with NOT_FOUND instead of ITEM_NOT_FOUND
  wrong_content_type,   // text/plain JSON on GET
  bad_schema,           // data.id a number on GET
  missing_request_id,   // no X-Request-Id
  server_error,         // 500 on POST
  accepts_invalid,      // 201 for any POST body
  rejects_valid,        // 422 VALIDATION_ERROR for every POST
  unauthorized_always,  // 401 on everything
  echoes_key,           // 500 whose body repeats the API key it was sent
};

inline constexpr const char* mini_key = "tk_test_mini_secret_value";

class mini_server {
 public:
  explicit mini_server(fault f) : fault_(f), runner_(routes()) {}
  int port() const { return runner_.port(); }
  std::string profile_yaml(bool with_fixture = true) const {
    return "base_url: http://127.0.0.1:" + std::to_string(port()) +
           "/api/v1\nenvironment: sandbox\ntenants:\n  t1:\n    id: \"1\"\n    fixtures: { " +
           std::string(with_fixture ? "item_id" : "other_id") +
           ": \"7\" }\n"
           "credentials:\n  - name: all\n    scheme: tenant_key\n    value: " +
           mini_key + "\n    tenant: t1\n    scopes: [items:read, items:write]\n";
  }

 private:
  std::unique_ptr<httplib::Server> routes() {
    auto server = std::make_unique<httplib::Server>();
    server->Get(R"(/api/v1/items/([^/]+))", [this](const httplib::Request& req,
                                                   httplib::Response& res) {
      if (!authorised(req, res)) return;
      const std::string id = req.matches[1];
      if (fault_ == fault::undocumented_status)
        return reply(res, 418, R"({"data":null,"message":null,"meta":null,"request_id":"r1"})");
      if (id != "7") {
        return reply(res, 404,
                     fault_ == fault::wrong_error_code
                         ? R"({"error":"no","error_code":"NOT_FOUND"})"
                         : R"({"error":"no","error_code":"ITEM_NOT_FOUND"})");
      }
      std::string body =
          fault_ == fault::bad_schema
              ? R"({"data":{"id":7,"name":"seven"},"message":null,"meta":null,"request_id":"r1"})"
              : R"({"data":{"id":"7","name":"seven"},"message":null,"meta":null,"request_id":"r1"})";
      reply(res, 200, body,
            fault_ == fault::wrong_content_type ? "text/plain" : "application/json");
    });
    server->Post("/api/v1/items", [this](const httplib::Request& req, httplib::Response& res) {
      if (!authorised(req, res)) return;
      if (fault_ == fault::server_error)
        return reply(res, 500, R"({"error":"boom","error_code":"INTERNAL_ERROR"})");
      if (fault_ == fault::echoes_key) {
        return reply(res, 500,
                     R"({"error":"bad key )" + req.get_header_value("X-Api-Key") +
                         R"(","error_code":"INTERNAL_ERROR"})");
      }
      if (fault_ == fault::rejects_valid)
        return reply(res, 422, R"({"error":"no","error_code":"VALIDATION_ERROR"})");
      if (fault_ != fault::accepts_invalid && !valid_body(req)) {
        return reply(res, 422, R"({"error":"bad","error_code":"VALIDATION_ERROR"})");
      }
      reply(res, 201,
            R"({"data":{"id":"8","name":"x"},"message":null,"meta":null,"request_id":"r1"})");
    });
    server->set_tcp_nodelay(true);
    return server;
  }

  void reply(httplib::Response& res, int status, const std::string& body,
             const char* type = "application/json") {
    res.status = status;
    res.set_content(body, type);
    if (fault_ != fault::missing_request_id) res.set_header("X-Request-Id", "r1");
  }
  bool authorised(const httplib::Request& req, httplib::Response& res) {
    if (fault_ != fault::unauthorized_always && req.get_header_value("X-Api-Key") == mini_key)
      return true;
    reply(res, 401, R"({"error":"who","error_code":"UNAUTHORIZED"})");
    return false;
  }
  /// The body rule of data/mini.yaml, written out by hand: an object with
  /// `name` (1..20 code points) and `size` (integer 1..10).
  static bool valid_body(const httplib::Request& req) {
    if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0) return false;
    boost::system::error_code ec;
    auto v = boost::json::parse(req.body, ec);
    if (ec || !v.is_object()) return false;
    const auto& o = v.as_object();
    const auto* name = o.if_contains("name");
    const auto* size = o.if_contains("size");
    if (!name || !size || !name->is_string()) return false;
    const auto length = schema::code_points(name->as_string());
    if (length < 1 || length > 20) return false;
    double n = 0;
    if (size->is_int64()) {
      n = static_cast<double>(size->as_int64());
    } else if (size->is_uint64()) {
      n = static_cast<double>(size->as_uint64());
    } else if (size->is_double()) {
      n = size->as_double();
      if (n != static_cast<double>(static_cast<long long>(n))) return false;
    } else {
      return false;
    }
    return n >= 1 && n <= 10;
  }

  fault fault_;
  test_support::httplib_runner runner_;  // last: it serves until destroyed
};

}  // namespace conform::test_support
