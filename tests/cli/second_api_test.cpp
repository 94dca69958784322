// A second API, with credential labels of its own (issue 33): the
// description tests/cli/data/second-api/projects.yaml says `x-credential:
// org_token` with `x-tenants: named`, a plain http bearer and an apiKey in
// the query; its permission matrix has an org_token column; its profile
// names the schemes by that label and by kind. Every check of the catalogue
// runs against a stub written from the description, with no code change:
// no failure on the conforming stub, the label in the reports, the tenant
// checks driven by x-tenants rather than by a name, and a planted deviation
// still caught.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <httplib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "openapi/loader.hpp"
#include "profile/loader.hpp"
#include "tests/support/servers.hpp"
#include "tests/cli/support.hpp"

namespace conform::cli {
namespace second_api {

const std::string folder = std::string(CONFORM_TEST_DATA_DIR) + "/second-api/";

enum class deviation {
  none,
  header_widens,  // an X-Org-Id the credential cannot reach is served
};

struct project {
  std::string id, org, name;
};

/// The Projects API as its description says it, in memory: organisations
/// 101, 102 and 103, an organisation token that reaches the first two and
/// must name one, a user token and a query key of 101 alone.
class projects_stub {
 public:
  explicit projects_stub(deviation d = deviation::none) : deviation_(d), runner_(routes()) {}
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(runner_.port()); }

 private:
  struct caller {
    std::set<std::string> orgs;
    bool names_org = false;  // x-tenants: named
  };

  std::unique_ptr<httplib::Server> routes() {
    auto server = std::make_unique<httplib::Server>();
    server->Get("/health", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"status":"ok"})", "application/json");
    });
    server->Get("/projects", [this](const httplib::Request& req, httplib::Response& res) {
      std::string org;
      if (!acting_org(req, res, org)) return;
      long long page = 1, size = 10;
      if (!number(req, "page", 1, 1'000'000'000, page) || !number(req, "per_page", 1, 50, size)) {
        return problem(res, 422, "VALIDATION_ERROR");
      }
      std::vector<project> mine;
      {
        const std::lock_guard lock(mutex_);
        for (const auto& p : projects_) {
          if (p.org == org) mine.push_back(p);
        }
      }
      const auto count = static_cast<long long>(mine.size());
      boost::json::array items;
      for (long long i = (page - 1) * size; i < std::min(count, page * size); ++i) {
        items.push_back(to_json(mine[static_cast<std::size_t>(i)]));
      }
      boost::json::object body{
          {"items", items},
          {"meta", {{"count", count}, {"pages", (count + size - 1) / size}, {"page", page}}}};
      res.set_content(boost::json::serialize(body), "application/json");
    });
    server->Post("/projects", [this](const httplib::Request& req, httplib::Response& res) {
      std::string org;
      if (!acting_org(req, res, org)) return;
      if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0) {
        return problem(res, 422, "VALIDATION_ERROR");
      }
      boost::system::error_code ec;
      const auto body = boost::json::parse(req.body, ec);
      if (ec || !body.is_object() || body.as_object().size() != 1) {
        return problem(res, 422, "VALIDATION_ERROR");
      }
      const auto* name = body.as_object().if_contains("name");
      if (name == nullptr || !name->is_string() || name->as_string().empty() ||
          code_points(std::string(name->as_string())) > 40) {
        return problem(res, 422, "VALIDATION_ERROR");
      }
      project made;
      {
        const std::lock_guard lock(mutex_);
        made = {"p" + std::to_string(next_id_++), org, std::string(name->as_string())};
        projects_.push_back(made);
      }
      res.status = 201;
      res.set_content(boost::json::serialize(to_json(made)), "application/json");
    });
    server->Get(R"(/projects/([^/]+))", [this](const httplib::Request& req,
                                               httplib::Response& res) {
      caller who;
      if (!authenticate(req, res, who)) return;
      const std::string id = req.matches[1];
      // The id's format is checked first, as the description's
      // pattern says: a malformed id is invalid, not unknown.
      if (id.size() < 2 || id[0] != 'p' ||
          !std::all_of(id.begin() + 1, id.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
        problem(res, 422, "VALIDATION_ERROR");
        return;
      }
      const std::lock_guard lock(mutex_);
      for (const auto& p : projects_) {
        if (p.id == id && who.orgs.count(p.org)) {
          res.set_content(boost::json::serialize(to_json(p)), "application/json");
          return;
        }
      }
      problem(res, 404, "PROJECT_NOT_FOUND");
    });
    // What the description does not document is refused.
    for (const char* path : {"/projects", R"(/projects/([^/]+))", "/health"}) {
      const auto not_allowed = [](const httplib::Request&, httplib::Response& res) {
        problem(res, 405, "METHOD_NOT_ALLOWED");
      };
      server->Put(path, not_allowed);
      server->Patch(path, not_allowed);
      server->Delete(path, not_allowed);
      if (std::string(path) != "/projects") server->Post(path, not_allowed);
    }
    return server;
  }

  /// Who calls, by the one credential it sends; a 401 when none is known.
  static bool authenticate(const httplib::Request& req, httplib::Response& res, caller& who) {
    if (req.get_header_value("X-Org-Token") == "ot_test_orgsecret") {
      who = {{"101", "102"}, true};
    } else if (req.get_header_value("Authorization") == "Bearer user-secret") {
      who = {{"101"}, false};
    } else if (req.has_param("key") && req.get_param_value("key") == "qk-secret") {
      who = {{"101"}, false};
    } else {
      problem(res, 401, "UNAUTHORIZED");
      return false;
    }
    return true;
  }

  /// The organisation a request acts for (x-tenant-context: the header).
  bool acting_org(const httplib::Request& req, httplib::Response& res, std::string& org) const {
    caller who;
    if (!authenticate(req, res, who)) return false;
    if (!req.has_header("X-Org-Id")) {
      if (who.names_org) {
        problem(res, 422, "ORG_REQUIRED");
        return false;
      }
      org = *who.orgs.begin();
      return true;
    }
    org = req.get_header_value("X-Org-Id");
    if (!who.orgs.count(org) && deviation_ != deviation::header_widens) {
      problem(res, 403, "FORBIDDEN");
      return false;
    }
    return true;
  }

  /// Query parameter `name`, an integer within [low, high] when present.
  static bool number(const httplib::Request& req, const std::string& name, long long low,
                     long long high, long long& into) {
    if (!req.has_param(name)) return true;
    const std::string text = req.get_param_value(name);
    if (text.empty() || text.size() > 12 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
      return false;
    }
    into = std::stoll(text);
    return into >= low && into <= high;
  }

  static std::size_t code_points(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0u) != 0x80u ? 1 : 0;
    return n;
  }

  static boost::json::object to_json(const project& p) {
    return {{"id", p.id}, {"org_id", p.org}, {"name", p.name}};
  }

  static void problem(httplib::Response& res, int status, const std::string& code) {
    res.status = status;
    res.set_content(boost::json::serialize(boost::json::object{{"code", code}}),
                    "application/json");
  }

  deviation deviation_;
  std::mutex mutex_;
  std::vector<project> projects_{{"p1", "101", "Alpha"},
                                 {"p2", "101", "Beta"},
                                 {"p3", "102", "Gamma"},
                                 {"p4", "103", "Delta"}};
  int next_id_ = 5;
  test_support::httplib_runner runner_;
};

/// The profile beside the description, with the stub's address, in a file of this test's own.
std::string profile_for(const projects_stub& stub) {
  std::string text = test_support::slurp(folder + "profile.yaml");
  text.replace(text.find("base_url: BASE_URL") + 10, 8, stub.base_url());
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const std::string file = ::testing::TempDir() + "second-api-profile-" + name + ".yaml";
  std::ofstream(file) << text;
  return file;
}

struct second_run : test_support::command_result {
  boost::json::object report;
};

second_run run_against(const projects_stub& stub) {
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const std::string json = ::testing::TempDir() + "second-api-report-" + name + ".json";
  second_run r;
  static_cast<test_support::command_result&>(r) = test_support::run(
      {"--spec", folder + "projects.yaml", "--profile", profile_for(stub), "--seed", "7",
       "--examples", "4", "--workers", "1", "--no-progress", "--json", json});
  boost::system::error_code ec;
  auto v = boost::json::parse(test_support::slurp(json), ec);
  if (!ec && v.is_object()) r.report = v.as_object();
  return r;
}

/// Each cell's status by check (any auth model), as "check: status status ...".
std::map<std::string, std::set<std::string>> cell_statuses(const second_run& r) {
  std::map<std::string, std::set<std::string>> out;
  if (!r.report.contains("cells")) return out;
  for (const auto& c : r.report.at("cells").as_array()) {
    out[std::string(c.at("check").as_string())].insert(std::string(c.at("status").as_string()));
  }
  return out;
}

std::set<std::string> auth_models(const second_run& r) {
  std::set<std::string> out;
  if (!r.report.contains("cells")) return out;
  for (const auto& c : r.report.at("cells").as_array()) {
    out.insert(std::string(c.at("auth_model").as_string()));
  }
  return out;
}

TEST(second_api, its_description_loads_with_its_own_labels_and_matrix) {
  const auto loaded = openapi::load(folder + "projects.yaml");
  ASSERT_TRUE(loaded.ok());
  const openapi::api_spec& spec = *loaded.spec;
  EXPECT_EQ(spec.credential_labels(), std::vector<std::string>{"org_token"});
  const auto* org = spec.find_scheme_named_by("org_token");
  ASSERT_NE(org, nullptr);
  EXPECT_EQ(org->credential, openapi::credential_kind::api_key);
  EXPECT_EQ(org->tenants, openapi::security_scheme::tenant_reach::named);
  EXPECT_EQ(spec.find_scheme_named_by("bearer"), spec.find_scheme("userBearer"));
  EXPECT_EQ(spec.find_scheme_named_by("api_key"), spec.find_scheme("queryKey"));
  ASSERT_TRUE(spec.permissions.has_value());
  const auto* row = spec.permissions->find_operation("listProjects");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->needs.at("org_token"), std::vector<std::string>{});
}

TEST(second_api, a_profile_names_its_schemes_by_label_and_kind_and_is_checked_by_x_tenants) {
  const auto loaded = openapi::load(folder + "projects.yaml");
  ASSERT_TRUE(loaded.ok());
  projects_stub stub;
  auto p = profile::load_profile(profile_for(stub));
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(profile::bind(*p.value, *loaded.spec).empty());
  const auto& creds = p.value->credentials;
  EXPECT_TRUE(creds[0].fits(*loaded.spec->find_scheme("orgToken")));
  EXPECT_FALSE(creds[0].fits(*loaded.spec->find_scheme("queryKey")));
  EXPECT_TRUE(creds[3].fits(*loaded.spec->find_scheme("queryKey")));
  EXPECT_FALSE(creds[3].fits(*loaded.spec->find_scheme("orgToken")));  // labelled: by label alone

  // A word the description does not declare: the error lists its labels.
  auto bad = profile::parse_profile(
      "base_url: http://127.0.0.1:1/\ncredentials:\n"
      "  - { name: k, scheme: tenant_key, value: s3cr3t }\n",
      "p.yaml");
  ASSERT_TRUE(bad.ok());
  const auto diags = profile::bind(*bad.value, *loaded.spec);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(core::to_string(diags[0]).find(
                "p.yaml:3:24: error: credential 'k': scheme 'tenant_key' names nothing in "),
            std::string::npos)
      << core::to_string(diags[0]);
  EXPECT_NE(diags[0].message.find("x-credential labels (org_token)"), std::string::npos)
      << diags[0].message;
  EXPECT_NE(diags[0].message.find("(orgToken, userBearer, queryKey)"), std::string::npos)
      << diags[0].message;
  EXPECT_EQ(diags[0].message.find("s3cr3t"), std::string::npos);
}

TEST(second_api, every_suite_runs_against_a_conforming_stub_with_no_failure) {
  projects_stub stub;
  const auto r = run_against(stub);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_FALSE(test_support::contains(r.out, "FAIL")) << r.out;
  ASSERT_FALSE(r.report.empty()) << r.out << r.err;
  // The auth models are named by the label, and by the keys of the schemes without one.
  const auto models = auth_models(r);
  const auto has = [&models](const std::string& prefix) {
    return std::any_of(models.begin(), models.end(),
                       [&prefix](const std::string& m) { return m.rfind(prefix, 0) == 0; });
  };
  EXPECT_TRUE(has("org_token (org-admin)")) << r.out;
  EXPECT_TRUE(has("userBearer (user)")) << r.out;
  EXPECT_TRUE(has("queryKey (query)")) << r.out;
  // What x-tenants: named and the rest of the description switch on ran and passed.
  const auto cells = cell_statuses(r);
  for (const char* check :
       {"tenant_context_required", "tenant_header_enforcement", "tenant_foreign_resource",
        "tenant_list_isolation", "auth_unauthenticated", "auth_credential_rejected",
        "auth_scope_matrix", "pagination_page_walk", "pagination_page_bounds", "method_not_allowed",
        "positive_data_acceptance", "negative_data_rejection", "response_schema_conformance"}) {
    ASSERT_TRUE(cells.count(check)) << check << "\n" << r.out;
    EXPECT_TRUE(cells.at(check).count("passed")) << check << "\n" << r.out;
    EXPECT_FALSE(cells.at(check).count("failed")) << check << "\n" << r.out;
  }
  // No secret of the profile in what was printed.
  for (const char* secret : {"ot_test_orgsecret", "user-secret", "qk-secret", "ot_live_old"}) {
    EXPECT_FALSE(test_support::contains(r.out + r.err, secret)) << secret;
  }
}

TEST(second_api, a_header_that_widens_a_credential_is_caught) {
  projects_stub stub(deviation::header_widens);
  const auto r = run_against(stub);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(test_support::contains(r.out, "FAIL tenant_header_enforcement")) << r.out;
}

}  // namespace second_api
}  // namespace conform::cli
