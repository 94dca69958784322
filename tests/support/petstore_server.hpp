#pragma once
// A conforming server of the OpenAPI Initiative's petstore-expanded example
// (GET/POST /pets, GET/DELETE /pets/{id}), at the root of its port, that can
// break the description in one planted way. Written from the description
// alone, as a team would, with none of Conform's extensions. Port 0, its own
// thread, no sleeps.

#include <boost/json.hpp>
#include <httplib.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "tests/support/servers.hpp"

namespace conform::test_support {

enum class petstore_fault {
  none,
  pet_id_as_text,  // GET /pets answers pets whose id is a string, not an integer
};

class petstore_server {
 public:
  /// With a `token`, every request needs `Authorization: Bearer <token>` (else 401).
  explicit petstore_server(petstore_fault f = petstore_fault::none, std::string token = "")
      : fault_(f), token_(std::move(token)), runner_(routes()) {}
  int port() const { return runner_.port(); }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port()); }

 private:
  std::unique_ptr<httplib::Server> routes() {
    auto server = std::make_unique<httplib::Server>();
    server->set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      if (token_.empty() || req.get_header_value("Authorization") == "Bearer " + token_) {
        return httplib::Server::HandlerResponse::Unhandled;
      }
      error(res, 401, "a bearer token is needed");
      return httplib::Server::HandlerResponse::Handled;
    });
    server->Get("/pets", [this](const httplib::Request& req, httplib::Response& res) {
      std::int64_t limit = -1;
      if (req.has_param("limit")) {
        const auto text = req.get_param_value("limit");
        if (!whole(text, limit) || limit < INT32_MIN || limit > INT32_MAX) {
          return error(res, 400, "limit must be an int32");
        }
      }
      boost::json::array out;
      std::lock_guard lock(mutex_);
      for (const auto& [id, pet] : pets_) {
        if (limit >= 0 && static_cast<std::int64_t>(out.size()) >= limit) break;
        out.push_back(as_json(id, pet));
      }
      reply(res, 200, boost::json::serialize(out));
    });
    server->Post("/pets", [this](const httplib::Request& req, httplib::Response& res) {
      if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0) {
        return error(res, 415, "the body must be application/json");
      }
      boost::system::error_code ec;
      auto v = boost::json::parse(req.body, ec);
      if (ec || !v.is_object()) return error(res, 400, "the body must be a JSON object");
      const auto& o = v.as_object();
      const auto* name = o.if_contains("name");
      const auto* tag = o.if_contains("tag");
      if (!name || !name->is_string()) return error(res, 400, "name is a required string");
      if (tag && !tag->is_string()) return error(res, 400, "tag must be a string");
      std::lock_guard lock(mutex_);
      const std::int64_t id = next_id_++;
      pets_[id] = {std::string(name->as_string()), tag ? std::string(tag->as_string()) : ""};
      reply(res, 200, boost::json::serialize(as_json(id, pets_[id])));
    });
    server->Get(R"(/pets/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
      std::int64_t id = 0;
      if (!whole(req.matches[1], id)) return error(res, 400, "id must be an int64");
      std::lock_guard lock(mutex_);
      const auto it = pets_.find(id);
      if (it == pets_.end()) return error(res, 404, "no such pet");
      reply(res, 200, boost::json::serialize(as_json(id, it->second)));
    });
    server->Delete(R"(/pets/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
      std::int64_t id = 0;
      if (!whole(req.matches[1], id)) return error(res, 400, "id must be an int64");
      std::lock_guard lock(mutex_);
      if (pets_.erase(id) == 0) return error(res, 404, "no such pet");
      res.status = 204;
    });
    server->set_tcp_nodelay(true);
    return server;
  }

  struct pet {
    std::string name, tag;
  };

  boost::json::object as_json(std::int64_t id, const pet& p) const {
    boost::json::object o;
    o["name"] = p.name;
    if (!p.tag.empty()) o["tag"] = p.tag;
    if (fault_ == petstore_fault::pet_id_as_text) {
      o["id"] = std::to_string(id);
    } else {
      o["id"] = id;
    }
    return o;
  }

  static bool whole(const std::string& text, std::int64_t& out) {
    if (text.empty()) return false;
    std::size_t used = 0;
    try {
      out = std::stoll(text, &used);
    } catch (const std::exception&) {
      return false;
    }
    return used == text.size();
  }

  static void reply(httplib::Response& res, int status, const std::string& body) {
    res.status = status;
    res.set_content(body, "application/json");
  }
  static void error(httplib::Response& res, int status, const std::string& message) {
    boost::json::object o;
    o["code"] = status;
    o["message"] = message;
    reply(res, status, boost::json::serialize(o));
  }

  petstore_fault fault_;
  std::string token_;
  std::mutex mutex_;
  std::map<std::int64_t, pet> pets_{{1, {"Rex", "dog"}}, {2, {"Tom", ""}}};
  std::int64_t next_id_ = 3;
  test_support::httplib_runner runner_;  // last: it serves until destroyed
};

}  // namespace conform::test_support
