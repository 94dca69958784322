// OpenAPI as written (issue 22): a stub that answers only as
// tests/cli/data/as-written.yaml allows gets no failure, and each rule has
// a planted deviation it must still catch. The description has no
// extension of ours: no responses on one operation, responses without
// content, 401 for a credential of another scheme (nothing says 403),
// readOnly and writeOnly properties, a non-exploded array query parameter,
// and an enum written as allOf over a oneOf of consts.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <httplib.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "tests/support/servers.hpp"
#include "tests/cli/support.hpp"

namespace conform::cli {
namespace {

const std::string description = std::string(CONFORM_TEST_DATA_DIR) + "/as-written.yaml";

enum class deviation {
  none,
  accepts_text_limit,   // GET /pets takes limit=conform
  accepts_other_kind,   // POST /pets takes kind 1 where the enum says 3
  requires_read_only,   // POST /pets refuses a body without the readOnly id
  answers_without_id,   // 201 without the id the response requires
  accepts_other_scheme  // GET /admin serves a credential of the key scheme
};

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0u) != 0x80u ? 1 : 0;
  return n;
}

bool short_text(const boost::json::value* v, bool required) {
  if (v == nullptr) return !required;
  if (!v->is_string()) return false;
  const std::size_t n = code_points(std::string(v->as_string()));
  return n >= 1 && n <= 20;
}

bool size_tag(std::string_view t) {
  return t == "small" || t == "large";
}

/// Written from the description alone: what it says is checked, what it
/// leaves open is answered freely (bodies of any type where no content is
/// described, 401 for every credential problem, the readOnly id ignored).
class as_written_stub {
 public:
  explicit as_written_stub(deviation d) : deviation_(d), runner_(routes()) {}
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(runner_.port()); }

 private:
  std::unique_ptr<httplib::Server> routes() {
    auto server = std::make_unique<httplib::Server>();
    server->Get("/pets", [this](const httplib::Request& req, httplib::Response& res) {
      if (req.get_header_value("X-Key") != "k1") return refuse(res, 401);
      if (req.has_param("limit")) {
        const std::string text = req.get_param_value("limit");
        int limit = 0;
        std::size_t used = 0;
        try {
          limit = std::stoi(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        const bool number = !text.empty() && used == text.size();
        if (!number && deviation_ != deviation::accepts_text_limit) return refuse(res, 400);
        if (number && (limit < 1 || limit > 50)) return refuse(res, 400);
      }
      if (req.has_header("X-Page-Size")) {
        const std::string text = req.get_header_value("X-Page-Size");
        long long size = 0;
        std::size_t used = 0;
        try {
          size = std::stoll(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (text.empty() || used != text.size() || size > 10) return refuse(res, 400);
      }
      if (req.has_param("tags")) {
        std::stringstream items(req.get_param_value("tags"));
        for (std::string t; std::getline(items, t, ',');) {
          if (!size_tag(t)) return refuse(res, 400);
        }
      }
      // No responses are described: any answer, of any type.
      res.status = 200;
      res.set_content("<p>pets</p>", "text/html");
    });
    server->Post("/pets", [this](const httplib::Request& req, httplib::Response& res) {
      if (req.get_header_value("X-Key") != "k1") return refuse(res, 401);
      if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0) {
        return refuse(res, 400);
      }
      boost::system::error_code ec;
      const auto body = boost::json::parse(req.body, ec);
      if (ec || !body.is_object()) return refuse(res, 400);
      const auto& o = body.as_object();
      if (!short_text(o.if_contains("name"), true) || !short_text(o.if_contains("secret"), true)) {
        return refuse(res, 400);
      }
      if (deviation_ == deviation::requires_read_only && !o.contains("id")) return refuse(res, 400);
      if (const auto* kind = o.if_contains("kind")) {
        const bool three = kind->is_int64() && kind->as_int64() == 3;
        const bool other = kind->is_int64() && kind->as_int64() >= 1 && kind->as_int64() <= 2;
        if (!three && !(other && deviation_ == deviation::accepts_other_kind)) {
          return refuse(res, 400);
        }
      }
      if (const auto* tags = o.if_contains("tags")) {
        if (!tags->is_array() || tags->as_array().size() > 3) return refuse(res, 400);
        for (const auto& t : tags->as_array()) {
          if (!t.is_string() || !size_tag(t.as_string())) return refuse(res, 400);
        }
      }
      // The readOnly id is the server's: whatever came is ignored. The
      // writeOnly secret is never answered.
      boost::json::object out{{"name", o.at("name")}};
      if (deviation_ != deviation::answers_without_id) out["id"] = 7;
      res.status = 201;
      res.set_content(boost::json::serialize(out), "application/json");
    });
    server->Get("/admin", [this](const httplib::Request& req, httplib::Response& res) {
      const bool bearer = req.get_header_value("Authorization") == "Bearer t1";
      const bool key = req.get_header_value("X-Key") == "k1";
      if (!bearer && !(key && deviation_ == deviation::accepts_other_scheme)) {
        return refuse(res, 401);  // another scheme's credential too: nothing says 403
      }
      res.status = 200;
    });
    return server;
  }

  /// A refusal with a body of no described type (the responses have no content).
  static void refuse(httplib::Response& res, int status) {
    res.status = status;
    res.set_content("refused", "text/plain");
  }

  deviation deviation_;
  test_support::httplib_runner runner_;
};

/// A run against the stub, and its JSON report.
struct stub_run : test_support::command_result {
  boost::json::object report;
};

stub_run run_against(const as_written_stub& stub, std::vector<std::string> extra = {}) {
  // One file per test: ctest runs this binary's tests side by side.
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::replace(name.begin(), name.end(), '/', '_');  // "IsCaughtByItsCheck/3"
  const std::string json = ::testing::TempDir() + "as-written-report-" + name + ".json";
  std::ostringstream out, err;
  stub_run r;
  std::vector<std::string> args = {"--spec",
                                   description,
                                   "--url",
                                   stub.base_url(),
                                   "-H",
                                   "X-Key: k1",
                                   "-H",
                                   "Authorization: Bearer t1",
                                   "--seed",
                                   "5",
                                   "--examples",
                                   "4",
                                   "--no-progress",
                                   "--json",
                                   json};
  args.insert(args.end(), extra.begin(), extra.end());
  r.status = run_command(args, out, err);
  r.out = out.str();
  r.err = err.str();
  std::ifstream in(json);
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  auto v = boost::json::parse(text.str(), ec);
  if (!ec && v.is_object()) r.report = v.as_object();
  return r;
}

std::string failures_of(const stub_run& r, const std::string& check = "") {
  std::string out;
  if (!r.report.contains("failures")) return out;
  for (const auto& f : r.report.at("failures").as_array()) {
    if (!check.empty() && f.at("check").as_string() != check) continue;
    out += std::string(f.at("check").as_string()) + " " +
           std::string(f.at("operation_id").as_string()) + ": " +
           std::string(f.at("cause").as_string()) + "\n";
  }
  return out;
}

TEST(as_written, a_stub_answering_as_the_text_allows_has_no_failure) {
  const as_written_stub stub(deviation::none);
  const auto r = run_against(stub);
  EXPECT_EQ(failures_of(r), "") << r.out << r.err;
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  // The enum written as allOf over a oneOf of consts is generated, not
  // "contradicted": every constraint of the run was sent.
  ASSERT_TRUE(r.report.contains("coverage")) << r.out;
  for (const auto& k : r.report.at("coverage").as_array()) {
    EXPECT_EQ(k.at("constraints"), k.at("covered")) << boost::json::serialize(k);
  }
}

TEST(as_written, a_broken_header_the_target_sets_with_h_is_not_run_never_failed) {
  // -H puts a valid X-Page-Size on every request: a case that broke the
  // header would reach the server valid. It is "not sent: why", never a
  // failure of negative_data_rejection.
  const as_written_stub stub(deviation::none);
  const auto r = run_against(stub, {"-H", "X-Page-Size: 5"});
  EXPECT_EQ(failures_of(r), "") << r.out << r.err;
  EXPECT_EQ(r.status, 0) << r.out;
  bool said = false;
  for (const auto& k : r.report.at("coverage").as_array()) {
    for (const auto& u : k.at("uncovered").as_array()) {
      const std::string text(u.as_string());
      if (text.find("X-Page-Size") != std::string::npos) {
        EXPECT_NE(text.find("not sent: header X-Page-Size is set by the target"), std::string::npos)
            << text;
        said = true;
      }
    }
  }
  EXPECT_TRUE(said) << r.out;
}

struct planted {
  const char* name;
  deviation d;
  const char* check;
};

// What ctest's listing and test names show of a case: its name, not the
// struct's bytes (a pointer, which differs from run to run).
void PrintTo(const planted& p, std::ostream* os) {
  *os << p.name;
}

class as_written_deviation : public ::testing::TestWithParam<planted> {};

TEST_P(as_written_deviation, is_caught_by_its_check) {
  const as_written_stub stub(GetParam().d);
  const auto r = run_against(stub);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(failures_of(r, GetParam().check), "") << failures_of(r) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    every_rule, as_written_deviation,
    ::testing::Values(
        planted{"accepts_text_limit", deviation::accepts_text_limit, "negative_data_rejection"},
        planted{"accepts_other_kind", deviation::accepts_other_kind, "negative_data_rejection"},
        planted{"requires_read_only", deviation::requires_read_only, "positive_data_acceptance"},
        planted{"answers_without_id", deviation::answers_without_id, "response_schema_conformance"},
        planted{"accepts_other_scheme", deviation::accepts_other_scheme, "auth_scope_matrix"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace conform::cli
