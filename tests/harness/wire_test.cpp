// The wire against a live stub of data/wire.yaml that reads requests the way
// the OpenAPI style table and the Encoding Object say, written by hand here
// (never with Conform's own reader): a run against the conforming stub has
// no finding, and each planted deviation is found by the check meant for it
// and by no check that has no business judging it.
#include <gtest/gtest.h>

#include <httplib.h>

#include <boost/json.hpp>

#include <atomic>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "harness/engine.hpp"
#include "openapi/loader.hpp"
#include "profile/loader.hpp"
#include "suites/registry.hpp"
#include "tests/support/servers.hpp"

namespace conform {
namespace {

enum class deviation {
  none,
  dependent_required_broken,  // 2XX body has `card` without `billing`
  prefix_items_broken,        // 2XX body's rgb is [1, "x"]
  range_wrong_content_type,   // 4XX answers as text/html
  undocumented_status,        // valid paint requests get 302 text/html
  audio_as_json,              // the recording answers application/json
};

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = text.find(sep, start);
    out.push_back(text.substr(start, at == std::string::npos ? at : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

bool integer_in(const std::string& text, long lo, long hi) {
  if (text.empty() || text.size() > 9) return false;
  std::size_t i = text[0] == '-' ? 1 : 0;
  if (i == text.size()) return false;
  for (std::size_t j = i; j < text.size(); ++j) {
    if (text[j] < '0' || text[j] > '9') return false;
  }
  const long v = std::stol(text);
  return v >= lo && v <= hi;
}

bool matches(const std::string& text, const char* pattern) {
  return std::regex_match(text, std::regex(pattern));
}

std::string url_decode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i] == '+' ? ' ' : s[i];
    }
  }
  return out;
}

class wire_stub {
 public:
  explicit wire_stub(deviation d) : d_(d), runner_(routes()) {}
  unsigned short port() const { return runner_.port(); }
  std::string profile_yaml() const {
    return "base_url: http://127.0.0.1:" + std::to_string(port()) +
           "\nenvironment: sandbox\ntenants:\n  t1:\n    id: \"1\"\n"
           "credentials:\n  - name: all\n    scheme: tenant_key\n    value: wire_secret_value\n"
           "    tenant: t1\n    scopes: []\n";
  }
  /// Requests each operation accepted (answered 2xx).
  std::map<std::string, int> accepted() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return accepted_;
  }
  /// Raw targets seen for paint, for asserting on the bytes.
  std::vector<std::string> targets() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return targets_;
  }

 private:
  std::unique_ptr<httplib::Server> routes() {
    auto s = std::make_unique<httplib::Server>();
    s->Get(R"(/colors/(.*))", [this](const httplib::Request& req, httplib::Response& res) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        targets_.push_back(req.target);
      }
      if (const std::string why = paint_refusal(req); !why.empty()) return refuse(res, why);
      if (d_ == deviation::undocumented_status) {
        res.status = 302;
        return res.set_content("<html>moved</html>", "text/html");
      }
      accept(res, "paint", 200);
    });
    s->Get(R"(/audio/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
      const std::string accept_header = req.get_header_value("Accept");
      if (accept_header.find("audio/mpeg") == std::string::npos ||
          accept_header.find("application/json") != std::string::npos) {
        return refuse(res, "Accept " + accept_header);
      }
      if (!integer_in(req.matches[1], 1, 99)) return refuse(res, "id");
      count("recording");
      res.status = 200;
      if (d_ == deviation::audio_as_json) return res.set_content(R"({"x":1})", "application/json");
      res.set_content(std::string("ID3\x03\x00", 5), "audio/mpeg");
    });
    s->Post("/uploads", [this](const httplib::Request& req, httplib::Response& res) {
      if (const std::string why = upload_refusal(req); !why.empty()) return refuse(res, why);
      accept(res, "upload", 201);
    });
    s->Post("/forms", [this](const httplib::Request& req, httplib::Response& res) {
      if (const std::string why = form_refusal(req); !why.empty()) return refuse(res, why);
      accept(res, "submit", 200);
    });
    s->set_tcp_nodelay(true);
    return s;
  }

  void count(const std::string& op) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++accepted_[op];
  }

  void accept(httplib::Response& res, const std::string& op, int status) {
    count(op);
    res.status = status;
    std::string body = R"({"ok":true,"rgb":[1,2],"card":"c","billing":null})";
    if (d_ == deviation::dependent_required_broken) body = R"({"ok":true,"rgb":[1,2],"card":"c"})";
    if (d_ == deviation::prefix_items_broken) body = R"({"ok":true,"rgb":[1,"x"]})";
    res.set_content(body, "application/json");
  }

  void refuse(httplib::Response& res, const std::string& why) const {
    res.status = 400;
    boost::json::object o{{"error", why}};
    res.set_content(boost::json::serialize(o),
                    d_ == deviation::range_wrong_content_type ? "text/html" : "application/json");
  }

  /// data/wire.yaml's paint, read by hand.
  static std::string paint_refusal(const httplib::Request& req) {
    const std::string label = req.matches[1];  // label, exploded: .blue.black
    if (label.empty() || label[0] != '.') return "color not a label";
    const auto colors = split(label.substr(1), '.');
    if (colors.size() > 3) return "too many colors";
    for (const auto& c : colors) {
      if (c != "blue" && c != "black" && c != "brown") return "color " + c;
    }
    // deepObject: filter[R] required, filter[G] optional, nothing else.
    bool has_r = false;
    for (const auto& [k, v] : req.params) {
      if (k.rfind("filter", 0) != 0) continue;
      if (k == "filter[R]" && integer_in(v, 0, 255) && !has_r) {
        has_r = true;
      } else if (!(k == "filter[G]" && integer_in(v, 0, 255))) {
        return "filter " + k + "=" + v;
      }
    }
    if (!has_r) return "filter[R] missing";
    if (req.get_param_value_count("tags") != 1) return "tags not one pipe-delimited value";
    for (const auto& t : split(req.get_param_value("tags"), '|')) {
      if (!matches(t, "[a-z]{1,6}")) return "tag " + t;
    }
    const std::string trace = req.get_header_value("X-Trace");
    if (trace.empty()) return "X-Trace missing";
    for (const auto& t : split(trace, ',')) {
      if (!integer_in(t, 0, 999999999)) return "X-Trace item " + t;
    }
    const std::string cookie = req.get_header_value("Cookie");
    if (!std::regex_match(cookie, std::regex("session=[a-z]{3,8}"))) return "cookie " + cookie;
    boost::system::error_code ec;
    const auto q = boost::json::parse(req.get_param_value("q"), ec);
    if (ec || !q.is_object() || q.as_object().size() != 1 || !q.as_object().contains("term") ||
        !q.as_object().at("term").is_string() ||
        !matches(std::string(q.as_object().at("term").as_string()), "[a-z]{1,5}")) {
      return "q " + req.get_param_value("q");
    }
    const std::string next = req.get_param_value("next");
    if (next != "/a/b?c=d" && next != "x:y@z") return "next " + next;
    return "";
  }

  static std::string upload_refusal(const httplib::Request& req) {
    if (!req.is_multipart_form_data()) return "not multipart";
    const auto tags = req.files.equal_range("tags");
    if (tags.first == tags.second) return "no tags part";
    for (auto it = tags.first; it != tags.second; ++it) {
      if (it->second.content_type != "text/plain") return "tags part " + it->second.content_type;
      if (!matches(it->second.content, "[a-z]{1,6}")) return "tag " + it->second.content;
    }
    if (req.files.count("meta") != 1) return "meta parts";
    const auto& meta = req.files.find("meta")->second;
    if (meta.content_type != "application/json") return "meta part " + meta.content_type;
    boost::system::error_code ec;
    const auto m = boost::json::parse(meta.content, ec);
    if (ec || !m.is_object() || !m.as_object().contains("k") ||
        !m.as_object().at("k").is_number() ||
        (m.as_object().at("k").is_double() &&
         m.as_object().at("k").as_double() !=
             static_cast<double>(static_cast<long long>(m.as_object().at("k").as_double())))) {
      return "meta " + meta.content;
    }
    if (req.files.count("count") != 1) return "count parts";
    const auto& c = req.files.find("count")->second;
    if (c.content_type != "text/plain" || !integer_in(c.content, 0, 9)) return "count " + c.content;
    return "";
  }

  static std::string form_refusal(const httplib::Request& req) {
    if (req.get_header_value("Content-Type") != "application/x-www-form-urlencoded")
      return "content type";
    std::multimap<std::string, std::string> pairs;
    for (const auto& item : split(req.body, '&')) {
      const std::size_t eq = item.find('=');
      pairs.emplace(url_decode(item.substr(0, eq)),
                    eq == std::string::npos ? "" : url_decode(item.substr(eq + 1)));
    }
    if (pairs.count("ids") != 1) return "ids not one space-delimited value";
    for (const auto& id : split(pairs.find("ids")->second, ' ')) {
      if (!integer_in(id, 1, 9)) return "id " + id;
    }
    if (pairs.count("filter[R]") != 1 || !integer_in(pairs.find("filter[R]")->second, 0, 9))
      return "filter[R]";
    return "";
  }

  deviation d_;
  mutable std::mutex mutex_;
  std::map<std::string, int> accepted_;
  std::vector<std::string> targets_;
  test_support::httplib_runner runner_;  // last: it serves until destroyed
};

struct run_result {
  harness::run_report report;
  std::map<std::string, int> accepted;
  std::vector<std::string> targets;
};

run_result run_against(deviation d) {
  auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/wire.yaml");
  EXPECT_TRUE(loaded.ok());
  for (const auto& diag : loaded.diagnostics) ADD_FAILURE() << core::to_string(diag);
  wire_stub stub(d);
  auto p = profile::parse_profile(stub.profile_yaml(), "wire profile");
  EXPECT_TRUE(p.ok());
  for (const auto& diag : p.diagnostics) ADD_FAILURE() << core::to_string(diag);
  static const auto catalogue = suites::builtin_checks();
  harness::run_config config;
  config.seed = 11;
  config.examples = 20;
  config.max_shrinks = 8;
  for (const auto& op : loaded.spec->operations) config.operations.push_back(&op);
  for (const auto& c : catalogue.all()) {
    if (c.exchange) config.checks.exchange.push_back(c.exchange);
  }
  http::client_options opts;
  opts.workers = 2;
  http::client client(p.value->base_url, opts);
  harness::listener quiet;
  run_result out;
  out.report = harness::run(*loaded.spec, *p.value, config, client, quiet);
  out.accepted = stub.accepted();
  out.targets = stub.targets();
  return out;
}

std::set<std::string> failed_checks(const harness::run_report& r) {
  std::set<std::string> out;
  for (const auto& f : r.failures) out.insert(f.check);
  return out;
}

TEST(wire, a_conforming_stub_has_no_finding_and_accepts_every_operations_requests) {
  const auto r = run_against(deviation::none);
  for (const auto& f : r.report.failures) {
    ADD_FAILURE() << f.check << " " << f.operation_id << ": " << f.seen << " " << f.response_excerpt
                  << "\n"
                  << f.curl;
  }
  EXPECT_EQ(r.report.exit_code(), 0);
  for (const char* op : {"paint", "recording", "upload", "submit"}) {
    EXPECT_GT(r.accepted.count(op) ? r.accepted.at(op) : 0, 0) << op << " accepted nothing";
  }
  // allowReserved: `next` travels with its reserved characters as they are.
  bool reserved_literal = false;
  for (const auto& t : r.targets) {
    reserved_literal = reserved_literal || t.find("next=/a/b%3Fc%3Dd") != std::string::npos ||
                       t.find("next=x:y@z") != std::string::npos;
  }
  EXPECT_TRUE(reserved_literal);
}

struct deviation_case {
  const char* name;
  deviation d;
  const char* found_by;
  std::vector<const char*> silent;  // checks that must not judge this deviation
};

// What ctest's listing shows of a case: its name, not its bytes (pointers,
// which differ from run to run).
void PrintTo(const deviation_case& c, std::ostream* os) {
  *os << c.name;
}

class wire_deviation : public ::testing::TestWithParam<deviation_case> {};

TEST_P(wire_deviation, is_found_by_its_check_and_by_no_other) {
  const auto r = run_against(GetParam().d);
  const auto failed = failed_checks(r.report);
  EXPECT_TRUE(failed.count(GetParam().found_by)) << "expected " << GetParam().found_by;
  for (const char* quiet : GetParam().silent) EXPECT_FALSE(failed.count(quiet)) << quiet;
  EXPECT_FALSE(failed.count("positive_data_acceptance"));
}

INSTANTIATE_TEST_SUITE_P(
    deviations, wire_deviation,
    ::testing::Values(deviation_case{"dependent_required_broken",
                                     deviation::dependent_required_broken,
                                     "response_schema_conformance",
                                     {"content_type_conformance", "status_code_conformance"}},
                      deviation_case{"prefix_items_broken",
                                     deviation::prefix_items_broken,
                                     "response_schema_conformance",
                                     {"content_type_conformance", "status_code_conformance"}},
                      deviation_case{"range_wrong_content_type",
                                     deviation::range_wrong_content_type,
                                     "content_type_conformance",
                                     {"status_code_conformance"}},
                      deviation_case{"undocumented_status",
                                     deviation::undocumented_status,
                                     "status_code_conformance",
                                     {"content_type_conformance", "response_schema_conformance"}},
                      deviation_case{"audio_as_json",
                                     deviation::audio_as_json,
                                     "content_type_conformance",
                                     {"status_code_conformance"}}),
    [](const ::testing::TestParamInfo<deviation_case>& info) { return info.param.name; });

}  // namespace
}  // namespace conform
