#pragma once
// Connections kept per workspace (tests/harness/data/nested_crud.yaml): POST
// /workspaces/{w}/connections creates one in workspace w, GET and DELETE
// /workspaces/{w}/connections/{id} read and remove it. A connection exists
// in its own workspace only: the same id under another workspace is 404.
// One planted defect: a delete that answers 204 and keeps the connection.
// Written from the description alone; port 0, its own thread, no sleeps.

#include <boost/json.hpp>
#include <httplib.h>

#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "tests/support/servers.hpp"

namespace conform::test_support {

class nested_crud_server {
 public:
  explicit nested_crud_server(bool delete_keeps = false)
      : delete_keeps_(delete_keeps), runner_(routes()) {}
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(runner_.port()); }

 private:
  using key = std::pair<std::string, std::string>;  // (workspace, id)

  std::unique_ptr<httplib::Server> routes() {
    auto server = std::make_unique<httplib::Server>();
    server->Post(R"(/workspaces/([^/]+)/connections)", [this](const httplib::Request& req,
                                                              httplib::Response& res) {
      boost::system::error_code ec;
      auto v = boost::json::parse(req.body, ec);
      const auto* name = !ec && v.is_object() ? v.as_object().if_contains("name") : nullptr;
      if (!name || !name->is_string() || name->as_string().empty() ||
          name->as_string().size() > 20) {
        return error(res, 400, "name: 1..20 characters");
      }
      std::lock_guard lock(mutex_);
      const std::string id = "c" + std::to_string(next_++);
      items_[{req.matches[1].str(), id}] = std::string(name->as_string());
      reply(res, 201, id, items_[{req.matches[1].str(), id}]);
    });
    server->Get(R"(/workspaces/([^/]+)/connections/([^/]+))",
                [this](const httplib::Request& req, httplib::Response& res) {
                  std::lock_guard lock(mutex_);
                  auto it = items_.find({req.matches[1].str(), req.matches[2].str()});
                  if (it == items_.end()) return error(res, 404, "no such connection");
                  reply(res, 200, it->first.second, it->second);
                });
    server->Delete(R"(/workspaces/([^/]+)/connections/([^/]+))",
                   [this](const httplib::Request& req, httplib::Response& res) {
                     std::lock_guard lock(mutex_);
                     auto it = items_.find({req.matches[1].str(), req.matches[2].str()});
                     if (it == items_.end()) return error(res, 404, "no such connection");
                     if (!delete_keeps_) items_.erase(it);
                     res.status = 204;
                   });
    return server;
  }

  static void reply(httplib::Response& res, int status, const std::string& id,
                    const std::string& name) {
    boost::json::object o;
    o["id"] = id;
    o["name"] = name;
    res.status = status;
    res.set_content(boost::json::serialize(o), "application/json");
  }
  static void error(httplib::Response& res, int status, const std::string& message) {
    boost::json::object o;
    o["message"] = message;
    res.status = status;
    res.set_content(boost::json::serialize(o), "application/json");
  }

  bool delete_keeps_;
  std::mutex mutex_;
  std::map<key, std::string> items_;
  int next_ = 1;
  test_support::httplib_runner runner_;  // last: it serves until destroyed
};

}  // namespace conform::test_support
