#pragma once
// A CRUD items service for the stateful checks (tests/harness/data/crud.yaml):
// POST /items creates (201, the record), GET /items lists every item, GET,
// PUT and DELETE /items/{id} read, update and remove one. One planted defect
// at a time: created items that are not readable, or deletes that answer
// 204 and keep the item. Written from the description alone; port 0, its
// own thread, no sleeps.

#include <boost/json.hpp>
#include <httplib.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "tests/support/servers.hpp"

namespace conform::test_support {

enum class crud_fault {
  none,
  created_not_readable,    // GET /items/{id} answers 404 for an item POST made
  deleted_still_readable,  // DELETE /items/{id} answers 204 and keeps the item
};

class crud_server {
 public:
  explicit crud_server(crud_fault f = crud_fault::none) : fault_(f), runner_(routes()) {}
  int port() const { return runner_.port(); }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port()); }
  /// Requests the server answered, for tests that count them.
  std::uint64_t requests() const { return requests_.load(); }

 private:
  struct item {
    std::string name;
    bool created = false;  // made by a POST (the seeded ones are not)
  };

  std::unique_ptr<httplib::Server> routes() {
    auto server = std::make_unique<httplib::Server>();
    server->set_pre_routing_handler([this](const httplib::Request&, httplib::Response&) {
      ++requests_;
      return httplib::Server::HandlerResponse::Unhandled;
    });
    server->Get("/items", [this](const httplib::Request&, httplib::Response& res) {
      boost::json::array items;
      std::lock_guard lock(mutex_);
      for (const auto& [id, it] : items_) items.push_back(as_json(id, it));
      boost::json::object out;
      out["items"] = std::move(items);
      reply(res, 200, out);
    });
    server->Post("/items", [this](const httplib::Request& req, httplib::Response& res) {
      auto name = name_of(req, res);
      if (!name) return;
      std::lock_guard lock(mutex_);
      const std::int64_t id = next_++;
      items_[id] = {*name, true};
      reply(res, 201, as_json(id, items_[id]));
    });
    server->Get(R"(/items/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mutex_);
      auto it = find(req);
      if (it == items_.end() ||
          (fault_ == crud_fault::created_not_readable && it->second.created)) {
        return error(res, 404, "no such item");
      }
      reply(res, 200, as_json(it->first, it->second));
    });
    server->Put(R"(/items/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
      auto name = name_of(req, res);
      if (!name) return;
      std::lock_guard lock(mutex_);
      auto it = find(req);
      if (it == items_.end()) return error(res, 404, "no such item");
      it->second.name = *name;
      reply(res, 200, as_json(it->first, it->second));
    });
    server->Delete(R"(/items/([^/]+))",
                   [this](const httplib::Request& req, httplib::Response& res) {
                     std::lock_guard lock(mutex_);
                     auto it = find(req);
                     if (it == items_.end()) return error(res, 404, "no such item");
                     if (fault_ != crud_fault::deleted_still_readable) items_.erase(it);
                     res.status = 204;
                   });
    return server;
  }

  std::optional<std::string> name_of(const httplib::Request& req, httplib::Response& res) {
    boost::system::error_code ec;
    auto v = boost::json::parse(req.body, ec);
    const auto* name = !ec && v.is_object() ? v.as_object().if_contains("name") : nullptr;
    if (!name || !name->is_string() || name->as_string().empty() || name->as_string().size() > 40) {
      error(res, 400, "name: 1..40 characters");
      return std::nullopt;
    }
    return std::string(name->as_string());
  }

  std::map<std::int64_t, item>::iterator find(const httplib::Request& req) {
    const std::string text = req.matches[1];
    if (text.empty() || text.size() > 18 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
      return items_.end();
    }
    return items_.find(std::stoll(text));
  }

  static boost::json::object as_json(std::int64_t id, const item& it) {
    boost::json::object o;
    o["id"] = id;
    o["name"] = it.name;
    return o;
  }
  static void reply(httplib::Response& res, int status, const boost::json::object& body) {
    res.status = status;
    res.set_content(boost::json::serialize(body), "application/json");
  }
  static void error(httplib::Response& res, int status, const std::string& message) {
    boost::json::object o;
    o["message"] = message;
    reply(res, status, o);
  }

  crud_fault fault_;
  std::atomic<std::uint64_t> requests_{0};
  std::mutex mutex_;
  std::map<std::int64_t, item> items_{{1, {"seeded", false}}};
  std::int64_t next_ = 100;
  test_support::httplib_runner runner_;  // last: it serves until destroyed
};

}  // namespace conform::test_support
