#pragma once
// The stub of the OpenAPI 3.2 fixture tests/openapi/data/v32/reports.yaml:
// QUERY /reports/search (a JSON filter in the body), GET /reports (the whole
// query string one form), GET /reports/feed (the query string one JSON
// value), POST /reports/import (JSON Lines) and LINK /reports/{id}. Every
// rule of the description is checked by hand here, and every answer is one
// the description documents. Port 0, threads of its own, no sleeps.

#include <boost/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "schema/validator.hpp"
#include "tests/support/servers.hpp"

namespace conform::test_support {

inline constexpr const char* report_key = "rk_test_reports_secret";

/// A deviation the stub can be switched into, each a check must catch.
enum class report_fault {
  none,
  bad_item,          // GET /reports answers a JSON Lines item without its title
  takes_any_filter,  // GET /reports accepts a query string its form does not admit
};

class report_server {
 public:
  explicit report_server(report_fault f = report_fault::none)
      : fault_(f), server_([this](const any_method_server::request& r) { return answer(r); }) {}
  std::string base_url() const { return server_.base_url(); }
  std::string profile_yaml() const {
    return "base_url: " + base_url() +
           "\nenvironment: sandbox\ncredentials:\n  - name: reader\n    scheme: apiKey\n"
           "    value: " +
           std::string(report_key) + "\n";
  }

 private:
  using request = any_method_server::request;
  using response = any_method_server::response;
  using json = boost::json::value;

  report_fault fault_;

  static response error(unsigned status, const char* why) {
    return {status, "application/json", std::string(R"({"error":")") + why + "\"}"};
  }

  static std::string decode(std::string_view s, bool plus) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
          std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
        out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
        i += 2;
      } else {
        out += plus && s[i] == '+' ? ' ' : s[i];
      }
    }
    return out;
  }

  static bool integer_in(const std::string& text, long lo, long hi) {
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
      return false;
    }
    const long n = std::stol(text);
    return n >= lo && n <= hi;
  }

  static bool text_within(const json* v, std::size_t lo, std::size_t hi) {
    if (!v || !v->is_string()) return false;
    const auto n = schema::code_points(v->as_string());
    return n >= lo && n <= hi;
  }

  static bool report_id(std::string_view id) {
    return id.size() >= 2 && id.size() <= 7 && id[0] == 'r' &&
           id.substr(1).find_first_not_of("0123456789") == std::string_view::npos;
  }

  /// Report: {id: ^r[0-9]{1,6}$, title: 1..40}, other members allowed.
  static bool valid_report(const json& v) {
    if (!v.is_object()) return false;
    const auto* id = v.as_object().if_contains("id");
    if (!id || !id->is_string() || !report_id(std::string(id->as_string()))) return false;
    return text_within(v.as_object().if_contains("title"), 1, 40);
  }

  static std::string reports_text(char separator_after) {
    return std::string(R"({"id":"r1","title":"Quarterly"})") + separator_after +
           R"({"id":"r22","title":"Yearly"})" + separator_after;
  }

  static response search(const request& r) {
    if (r.header("Content-Type").rfind("application/json", 0) != 0) {
      return error(400, "a JSON filter");
    }
    boost::system::error_code ec;
    const json v = boost::json::parse(r.body, ec);
    if (ec || !v.is_object()) return error(400, "a JSON object");
    for (const auto& m : v.as_object()) {
      if (m.key() != "text" && m.key() != "status") return error(400, "unknown member");
    }
    if (!text_within(v.as_object().if_contains("text"), 1, 30)) return error(400, "text");
    if (const auto* st = v.as_object().if_contains("status")) {
      if (!st->is_string() || (st->as_string() != "open" && st->as_string() != "closed")) {
        return error(400, "status");
      }
    }
    return {200, "application/json", R"({"items":[{"id":"r1","title":"Quarterly"}]})"};
  }

  response list(std::string_view query) const {
    if (fault_ == report_fault::takes_any_filter) {
      return {200, "application/jsonl", reports_text('\n')};
    }
    std::string status, limit;
    bool has_status = false, has_limit = false;
    while (!query.empty()) {
      const std::size_t amp = query.find('&');
      const std::string_view pair = query.substr(0, amp);
      const std::size_t eq = pair.find('=');
      const std::string name = decode(pair.substr(0, eq), true);
      const std::string value =
          eq == std::string_view::npos ? "" : decode(pair.substr(eq + 1), true);
      if (name == "status" && !has_status) {
        has_status = true;
        status = value;
      } else if (name == "limit" && !has_limit) {
        has_limit = true;
        limit = value;
      } else {
        return error(400, "unknown or repeated query member");
      }
      query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    }
    if (!has_status || (status != "open" && status != "closed")) return error(400, "status");
    if (has_limit && !integer_in(limit, 1, 50)) return error(400, "limit");
    if (fault_ == report_fault::bad_item) {
      return {200, "application/jsonl", reports_text('\n') + R"({"id":"r3"})" + "\n"};
    }
    return {200, "application/jsonl", reports_text('\n')};
  }

  static response feed(std::string_view query) {
    if (!query.empty()) {
      boost::system::error_code ec;
      const json v = boost::json::parse(decode(query, false), ec);
      if (ec || !v.is_object()) return error(400, "a JSON object");
      if (const auto* t = v.as_object().if_contains("title"); t && !text_within(t, 0, 20)) {
        return error(400, "title");
      }
    }
    return {200, "application/x-ndjson", reports_text('\n')};
  }

  static response import(const request& r) {
    if (r.header("Content-Type").rfind("application/jsonl", 0) != 0) {
      return error(400, "JSON Lines");
    }
    std::size_t count = 0;
    std::string_view rest = r.body;
    while (!rest.empty()) {
      const std::size_t nl = rest.find('\n');
      const std::string_view line = rest.substr(0, nl);
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
      if (line.empty()) continue;
      boost::system::error_code ec;
      const json v = boost::json::parse(line, ec);
      if (ec || !valid_report(v)) return error(400, "a report a line");
      ++count;
    }
    return {202, "application/json", R"({"imported":)" + std::to_string(count) + "}"};
  }

  response answer(const request& r) const {
    constexpr std::string_view base = "/api/v1";
    std::string_view target = r.target;
    if (target.rfind(base, 0) != 0) return error(404, "no such route");
    target.remove_prefix(base.size());
    const std::size_t q = target.find('?');
    const std::string_view path = target.substr(0, q);
    const std::string_view query =
        q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
    if (r.header("X-Api-Key") != report_key) return error(401, "who are you");
    if (r.method == "QUERY" && path == "/reports/search") return search(r);
    if (r.method == "GET" && path == "/reports") return list(query);
    if (r.method == "GET" && path == "/reports/feed") return feed(query);
    if (r.method == "POST" && path == "/reports/import") return import(r);
    constexpr std::string_view item = "/reports/";
    if (r.method == "LINK" && path.rfind(item, 0) == 0 && path.size() > item.size()) {
      const std::string id = decode(path.substr(item.size()), false);
      if (!report_id(id)) return error(400, "id");
      return id == "r1" ? response{204, "", ""} : error(404, "no such report");
    }
    return error(404, "no such route");
  }

  any_method_server server_;
};

}  // namespace conform::test_support
