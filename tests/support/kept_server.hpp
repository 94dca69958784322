#pragma once
// Items a team keeps (tests/cli/data/kept.yaml): three seeded before any
// run (ids 1, 2, 3), created ones from 100 on. It answers creates with a
// Location, takes a bulk DELETE on the collection (filtered by `name`), a
// PATCH, a DELETE and an archive action on one item, and says what the
// seeded items are (`seeded`, byte for byte) and how often a write reached
// an item a run created. Port 0, its own thread, no sleeps.

#include <boost/json.hpp>
#include <httplib.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "tests/support/servers.hpp"

namespace conform::test_support {

class kept_server {
 public:
  kept_server() : runner_(routes()) {}
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(runner_.port()); }
  /// The seeded items (ids below 100) as JSON: what a safe run leaves as is.
  std::string seeded() {
    std::lock_guard lock(mutex_);
    boost::json::array out;
    for (const auto& [id, it] : items_) {
      if (id < 100) out.push_back(as_json(id, it));
    }
    return boost::json::serialize(out);
  }
  /// Successful PATCH, DELETE and archive requests on items a run created.
  std::uint64_t writes_to_created() const { return writes_to_created_.load(); }

 private:
  struct item {
    std::string name;
    bool archived = false;
  };

  std::unique_ptr<httplib::Server> routes() {
    auto server = std::make_unique<httplib::Server>();
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
      items_[id] = {*name, false};
      res.set_header("Location", "/items/" + std::to_string(id));
      reply(res, 201, as_json(id, items_[id]));
    });
    server->Delete("/items", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mutex_);
      const bool filtered = req.has_param("name");
      std::erase_if(items_, [&](const auto& kv) {
        return !filtered || kv.second.name == req.get_param_value("name");
      });
      res.status = 204;
    });
    server->Get(R"(/items/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mutex_);
      auto it = find(req);
      if (it == items_.end()) return error(res, 404, "no such item");
      reply(res, 200, as_json(it->first, it->second));
    });
    server->Patch(R"(/items/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
      auto name = name_of(req, res);
      if (!name) return;
      std::lock_guard lock(mutex_);
      auto it = find(req);
      if (it == items_.end()) return error(res, 404, "no such item");
      it->second.name = *name;
      count(it->first);
      reply(res, 200, as_json(it->first, it->second));
    });
    server->Delete(R"(/items/([^/]+))",
                   [this](const httplib::Request& req, httplib::Response& res) {
                     std::lock_guard lock(mutex_);
                     auto it = find(req);
                     if (it == items_.end()) return error(res, 404, "no such item");
                     count(it->first);
                     items_.erase(it);
                     res.status = 204;
                   });
    server->Post(R"(/items/([^/]+)/archive)",
                 [this](const httplib::Request& req, httplib::Response& res) {
                   std::lock_guard lock(mutex_);
                   auto it = find(req);
                   if (it == items_.end()) return error(res, 404, "no such item");
                   it->second.archived = true;
                   count(it->first);
                   reply(res, 200, as_json(it->first, it->second));
                 });
    return server;
  }

  void count(std::int64_t id) {
    if (id >= 100) ++writes_to_created_;
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
    o["archived"] = it.archived;
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

  std::atomic<std::uint64_t> writes_to_created_{0};
  std::mutex mutex_;
  std::map<std::int64_t, item> items_{
      {1, {"first", false}}, {2, {"second", false}}, {3, {"third", false}}};
  std::int64_t next_ = 100;
  test_support::httplib_runner runner_;  // last: it serves until destroyed
};

}  // namespace conform::test_support
