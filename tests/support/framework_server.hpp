#pragma once
// A stub that answers as web-framework services answer (the description is
// framework/framework.yaml, Swagger 2.0 with none of Conform's extensions):
// it refuses schema-valid input that means nothing with the 4xx it
// documents, with an object body of its own shape (400 {"message": ...},
// FastAPI's 422 {"detail": [{"msg": ...}]}, 415 for what is not a form),
// reads form fields only from a form, takes a file only in multipart, and
// serves a PNG. Faults break it in one planted way. Port 0, its own thread,
// no sleeps: the slow endpoint waits until the stub is destroyed.

#include <boost/json.hpp>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <regex>
#include <string>

#include "tests/support/servers.hpp"

namespace conform::test_support {

enum class framework_fault {
  none,
  rejects_example,   // POST /labels refuses every body, its documented example too
  binary_500,        // GET /image answers 500 with the PNG's bytes
  invalid_utf8_500,  // GET /labels answers 500 with text/plain that is not UTF-8
  slow_image,        // GET /image answers only when the stub is destroyed
  refuses_sizes,     // GET /headers answers 431 whatever it gets
};

/// The description the stub serves, and its variant with one broken operation.
inline std::string framework_description() {
  return std::string(CONFORM_OAI_EXAMPLES_DIR) + "/../framework/framework.yaml";
}
inline std::string framework_broken_description() {
  return std::string(CONFORM_OAI_EXAMPLES_DIR) + "/../framework/broken_operation.yaml";
}

class framework_server {
 public:
  explicit framework_server(framework_fault f = framework_fault::none)
      : fault_(f), runner_(routes()) {}
  ~framework_server() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    released_.notify_all();  // the slow endpoint answers now, so the server can stop
  }
  int port() const { return runner_.port(); }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port()); }
  /// Requests that reached the route ("POST /forms"), and those answered 2xx.
  std::uint64_t hits(const std::string& route) const {
    std::lock_guard lock(mutex_);
    return count(hits_, route);
  }
  std::uint64_t accepted(const std::string& route) const {
    std::lock_guard lock(mutex_);
    return count(accepted_, route);
  }

  /// A PNG signature and header, then filler: 1,234 bytes of image/png.
  static std::string png() {
    std::string out("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0", 29);
    out.append(1234 - out.size(), '\xAB');
    return out;
  }

 private:
  static std::uint64_t count(const std::map<std::string, std::uint64_t>& m,
                             const std::string& route) {
    auto it = m.find(route);
    return it == m.end() ? 0 : it->second;
  }

  void record(const std::string& route, const httplib::Response& res) {
    std::lock_guard lock(mutex_);
    ++hits_[route];
    if (res.status >= 200 && res.status < 300) ++accepted_[route];
  }

  static void reply(httplib::Response& res, int status, const boost::json::value& body) {
    res.status = status;
    res.set_content(boost::json::serialize(body), "application/json");
  }
  static void error(httplib::Response& res, int status, const std::string& message) {
    reply(res, status, boost::json::object{{"message", message}, {"code", status}});
  }
  /// FastAPI's shape: {"detail": [{"loc": [...], "msg": ..., "type": ...}]}.
  static void unprocessable(httplib::Response& res, const std::string& where,
                            const std::string& msg) {
    boost::json::object item{
        {"loc", boost::json::array{"query", where}}, {"msg", msg}, {"type", "value_error"}};
    reply(res, 422, boost::json::object{{"detail", boost::json::array{item}}});
  }

  static bool whole(const std::string& text, long long& out) {
    static const std::regex integer("-?[0-9]{1,18}");
    if (!std::regex_match(text, integer)) return false;
    out = std::stoll(text);
    return true;
  }

  static bool form(const httplib::Request& req) {
    const std::string type = req.get_header_value("Content-Type");
    return type.rfind("application/x-www-form-urlencoded", 0) == 0 ||
           type.rfind("multipart/form-data", 0) == 0;
  }

  /// A form field, from a urlencoded body or a multipart part.
  static std::optional<std::string> field(const httplib::Request& req, const std::string& name) {
    if (req.is_multipart_form_data()) {
      if (!req.has_file(name)) return std::nullopt;
      return req.get_file_value(name).content;
    }
    httplib::Params fields;
    httplib::detail::parse_query_text(req.body, fields);
    auto it = fields.find(name);
    if (it == fields.end()) return std::nullopt;
    return it->second;
  }

  std::unique_ptr<httplib::Server> routes() {
    auto server = std::make_unique<httplib::Server>();
    server->Get("/labels", [this](const httplib::Request& req, httplib::Response& res) {
      if (fault_ == framework_fault::invalid_utf8_500) {
        res.status = 500;
        res.set_content(std::string("caf\xe9 \xff\xfe broken \xc3"), "text/plain");
      } else if (const auto match = req.get_param_value("match");
                 !match.empty() && !std::regex_match(match, std::regex("name=[A-Za-z0-9_-]+"))) {
        error(res, 400, "malformed filter '" + match.substr(0, 40) + "': expected name=<text>");
      } else {
        reply(res, 200, boost::json::array{boost::json::object{{"name", "bug"}, {"color", "red"}}});
      }
      record("GET /labels", res);
    });
    server->Post("/labels", [this](const httplib::Request& req, httplib::Response& res) {
      boost::system::error_code ec;
      auto v = boost::json::parse(req.body, ec);
      const auto* o = ec ? nullptr : v.if_object();
      const auto* name = o ? o->if_contains("name") : nullptr;
      const auto* color = o ? o->if_contains("color") : nullptr;
      if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0) {
        error(res, 400, "the body must be JSON");
      } else if (!o || !name || !name->is_string() || (color && !color->is_string())) {
        error(res, 400, "a label is an object with a string name");
      } else if (fault_ == framework_fault::rejects_example ||
                 !std::regex_match(std::string(name->as_string()),
                                   std::regex("[A-Za-z0-9 _-]{1,40}"))) {
        error(res, 400, "label name must be a word of 1 to 40 letters");
      } else {
        reply(res, 200, *o);
      }
      record("POST /labels", res);
    });
    server->Get("/range", [this](const httplib::Request& req, httplib::Response& res) {
      long long start = 0, end = 0;
      if (!req.has_param("start") || !req.has_param("end")) {
        unprocessable(res, req.has_param("start") ? "end" : "start", "field required");
      } else if (!whole(req.get_param_value("start"), start)) {
        unprocessable(res, "start", "value is not a valid integer");
      } else if (!whole(req.get_param_value("end"), end)) {
        unprocessable(res, "end", "value is not a valid integer");
      } else if (start > end) {
        unprocessable(res, "start", "start must not follow end");
      } else {
        reply(res, 200, boost::json::object{{"start", start}, {"end", end}});
      }
      record("GET /range", res);
    });
    server->Post("/forms", [this](const httplib::Request& req, httplib::Response& res) {
      long long n = 0;
      if (!form(req)) {
        error(res, 415, "Unsupported Media Type");
      } else if (auto name = field(req, "name"); !name) {
        error(res, 400, "name: field required");
      } else if (auto count = field(req, "count"); count && !whole(*count, n)) {
        error(res, 400, "count: not an integer");
      } else {
        reply(res, 200, boost::json::object{{"name", *name}});
      }
      record("POST /forms", res);
    });
    server->Post("/upload", [this](const httplib::Request& req, httplib::Response& res) {
      if (!req.is_multipart_form_data()) {
        error(res, 415, "Unsupported Media Type: a file travels in multipart/form-data");
      } else if (!req.has_file("file") || req.get_file_value("file").filename.empty()) {
        // As Flask and Starlette read a form: a part is a file only with a filename.
        error(res, 400, "file: a file is required");
      } else {
        reply(res, 200, boost::json::object{{"bytes", req.get_file_value("file").content.size()}});
      }
      record("POST /upload", res);
    });
    server->Get("/headers", [this](const httplib::Request& req, httplib::Response& res) {
      const std::string trace = req.get_header_value("X-Trace");
      if (fault_ == framework_fault::refuses_sizes || trace.size() > 8192) {
        error(res, 431, "Request Header Fields Too Large");
      } else if (req.target.size() > 8192) {
        error(res, 414, "URI Too Long");
      } else {
        reply(res, 200,
              boost::json::object{{"trace_bytes", trace.size()},
                                  {"q_bytes", req.get_param_value("q").size()}});
      }
      record("GET /headers", res);
    });
    server->Get("/image", [this](const httplib::Request&, httplib::Response& res) {
      if (fault_ == framework_fault::slow_image) {
        std::unique_lock lock(mutex_);
        released_.wait(lock, [this] { return stopping_; });
      }  // the lock is let go here: record() takes it
      res.status = fault_ == framework_fault::binary_500 ? 500 : 200;
      res.set_content(png(), "image/png");
      record("GET /image", res);
    });
    // As frameworks do: an error the server itself raises (a body it cannot
    // parse) still has the error body of every other answer.
    server->set_error_handler([](const httplib::Request&, httplib::Response& res) {
      if (res.body.empty()) {
        error(res, res.status,
              res.status == 400 ? "Bad Request" : "HTTP " + std::to_string(res.status));
      }
    });
    server->set_tcp_nodelay(true);
    return server;
  }

  framework_fault fault_;
  mutable std::mutex mutex_;
  std::condition_variable released_;
  bool stopping_ = false;
  std::map<std::string, std::uint64_t> hits_, accepted_;
  test_support::httplib_runner runner_;  // last: it serves until destroyed
};

}  // namespace conform::test_support
