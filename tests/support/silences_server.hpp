#pragma once
// A silences service shaped like the Swagger 2.0 Go monitoring service of
// issue 25 (tests/harness/data/silences.swagger.yaml): POST /silences
// answers `{"silenceID": "..."}`, the single silence lives at
// /silence/{silenceID} (singular), DELETE expires a silence rather than
// removing it (a read then shows state `expired`), and a schema-valid
// silence that ends before it starts is refused with 400. Port 0, its own
// thread, no sleeps.

#include <boost/json.hpp>
#include <httplib.h>

#include <map>
#include <mutex>
#include <string>

#include "tests/support/servers.hpp"

namespace conform::test_support {

class silences_server {
 public:
  silences_server() : runner_(routes()) {}
  int port() const { return runner_.port(); }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port()) + "/api/v2"; }

 private:
  struct silence {
    std::string comment, starts, ends, state;
  };

  std::unique_ptr<httplib::Server> routes() {
    auto server = std::make_unique<httplib::Server>();
    server->Get("/api/v2/silences", [this](const httplib::Request&, httplib::Response& res) {
      boost::json::array out;
      std::lock_guard lock(mutex_);
      for (const auto& [id, s] : silences_) out.push_back(as_json(id, s));
      res.set_content(boost::json::serialize(out), "application/json");
    });
    server->Post("/api/v2/silences", [this](const httplib::Request& req, httplib::Response& res) {
      boost::system::error_code ec;
      auto v = boost::json::parse(req.body, ec);
      const auto* o = !ec ? v.if_object() : nullptr;
      auto text = [o](const char* key) -> std::string {
        const auto* f = o ? o->if_contains(key) : nullptr;
        return f && f->is_string() ? std::string(f->as_string()) : std::string();
      };
      const auto* matchers = o ? o->if_contains("matchers") : nullptr;
      if (!o || !matchers || !matchers->is_array() || matchers->as_array().empty()) {
        return error(res, 400, "matchers: at least one");
      }
      // RFC 3339 timestamps of one form compare as text.
      if (text("startsAt").empty() || text("endsAt").empty() ||
          text("endsAt") <= text("startsAt")) {
        return error(res, 400, "start time must be before end time");
      }
      std::lock_guard lock(mutex_);
      const std::string id = "s-" + std::to_string(next_++);
      silences_[id] = {text("comment"), text("startsAt"), text("endsAt"), "active"};
      boost::json::object out;
      out["silenceID"] = id;
      res.set_content(boost::json::serialize(out), "application/json");
    });
    server->Get(R"(/api/v2/silence/([^/]+))", [this](const httplib::Request& req,
                                                     httplib::Response& res) {
      std::lock_guard lock(mutex_);
      auto it = silences_.find(req.matches[1]);
      if (it == silences_.end()) return error(res, 404, "silence not found");
      res.set_content(boost::json::serialize(as_json(it->first, it->second)), "application/json");
    });
    server->Delete(R"(/api/v2/silence/([^/]+))",
                   [this](const httplib::Request& req, httplib::Response& res) {
                     std::lock_guard lock(mutex_);
                     auto it = silences_.find(req.matches[1]);
                     if (it == silences_.end()) return error(res, 404, "silence not found");
                     it->second.state = "expired";
                     res.status = 200;
                   });
    return server;
  }

  static boost::json::object as_json(const std::string& id, const silence& s) {
    boost::json::object o;
    o["id"] = id;
    o["comment"] = s.comment;
    o["startsAt"] = s.starts;
    o["endsAt"] = s.ends;
    boost::json::array matchers;
    matchers.push_back({{"name", "job"}, {"value", "api"}, {"isRegex", false}});
    o["matchers"] = std::move(matchers);
    o["status"] = {{"state", s.state}};
    return o;
  }
  static void error(httplib::Response& res, int status, const std::string& message) {
    res.status = status;
    res.set_content(boost::json::serialize(boost::json::value(message)), "application/json");
  }

  std::mutex mutex_;
  std::map<std::string, silence> silences_;
  int next_ = 1;
  test_support::httplib_runner runner_;  // last: it serves until destroyed
};

}  // namespace conform::test_support
