// Correct clients that nobody tuned to the certification are certified
// (issue 31): a batch client that exits 1 after giving up on an outage and
// logs its request_id, a client of two read operations, a client that only
// moves credit, a client that builds its form anew on every attempt. Each in
// two or three stacks, on seeds 1 to 5 between them, with the scope it uses
// named in its report. bench/certify_matrix.sh runs every variant on every
// seed.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/certify/certify_support.hpp"

namespace conform::testing {
namespace {

struct variant {
  std::string name;
  std::vector<std::string> args;        // the variant's own arguments
  std::vector<std::string> operations;  // the scope it must be certified for
};

const std::vector<variant> variants = {
    {"exit-on-give-up", {"--exit-on-give-up"}, {}},
    {"sessions-only", {"--only", "sessions"}, {"listVoiceSessions", "getVoiceSession"}},
    {"credits-only", {"--only", "credits"}, {"allocateCredits", "deallocateCredits"}},
    {"rebuild-multipart", {"--rebuild-multipart"}, {}},
};

/// The command of `stack` ("cpp", "python", "node") with `args`; empty when
/// the stack's interpreter is missing or the C++ client has no such variant.
std::vector<std::string> command(const std::string& stack, const variant& v) {
  std::vector<std::string> cmd;
  if (stack == "cpp") {
    if (v.name != "exit-on-give-up") return {};
    cmd = {CONFORM_EXAMPLE_CLIENT};
  } else if (stack == "python") {
    if (!available("python3")) return {};
    cmd = {"python3", std::string(CONFORM_EXAMPLES_DIR) + "/partner_client_py/client.py"};
  } else {
    if (!available("node")) return {};
    cmd = {"node", std::string(CONFORM_EXAMPLES_DIR) + "/partner_client_node/client.mjs"};
  }
  cmd.insert(cmd.end(), v.args.begin(), v.args.end());
  return cmd;
}

TEST(correct_variants, each_is_certified_with_the_scope_it_uses) {
  struct job {
    const variant* v;
    std::string stack;
    std::uint64_t seed;
    std::vector<std::string> cmd;
  };
  std::vector<job> jobs;
  std::uint64_t seed = 0;
  std::vector<std::string> not_run;
  for (const auto& v : variants) {
    for (const char* stack : {"cpp", "python", "node"}) {
      auto cmd = command(stack, v);
      if (cmd.empty()) {
        if (std::string(stack) != "cpp") not_run.push_back(v.name + " on " + stack);
        continue;
      }
      jobs.push_back({&v, stack, seed % 5 + 1, std::move(cmd)});
      ++seed;
    }
  }
  // A few at a time: each certification runs its client four times at once.
  for (std::size_t from = 0; from < jobs.size(); from += 4) {
    std::vector<std::function<certify_run()>> batch;
    for (std::size_t i = from; i < std::min(jobs.size(), from + 4); ++i) {
      batch.push_back([&j = jobs[i]] { return certify(j.seed, j.cmd); });
    }
    const auto runs = all_at_once(batch);
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const job& j = jobs[from + i];
      SCOPED_TRACE(j.v->name + " on " + j.stack + ", seed " + std::to_string(j.seed));
      const auto& r = runs[i];
      EXPECT_EQ(r.status, 0) << r.out;
      ASSERT_TRUE(r.report.is_object()) << r.out;
      EXPECT_TRUE(r.report.at("failures").as_array().empty()) << r.out;
      if (!j.v->operations.empty()) {
        std::vector<std::string> scope;
        for (const auto& op : r.report.at("scope").at("operations").as_array()) {
          scope.emplace_back(op.as_string());
        }
        EXPECT_EQ(scope, j.v->operations);
      }
      EXPECT_NE(r.out.find("certified at level core for"), std::string::npos) << r.out;
    }
  }
  if (!not_run.empty()) {
    GTEST_SKIP() << "not run for " << not_run.size() << " variants: the interpreter is missing";
  }
}

TEST(correct_variants, the_batch_client_exits_1_in_the_outage_pass_and_names_its_request_id) {
  if (!available("python3")) GTEST_SKIP() << "not run: python3 is not installed";
  const auto r =
      certify(2, {"python3", std::string(CONFORM_EXAMPLES_DIR) + "/partner_client_py/client.py",
                  "--exit-on-give-up"});
  EXPECT_EQ(r.status, 0) << r.out;
  bool outage_exit_1 = false;
  for (const auto& p : r.report.at("passes").as_array()) {
    if (p.at("name").as_string() != "outage") continue;
    outage_exit_1 =
        p.at("client_exit").as_string() == "exit status 1" && !p.at("completion_judged").as_bool();
  }
  EXPECT_TRUE(outage_exit_1) << r.out;
  EXPECT_NE(r.out.find("failed persistently (request_id "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace conform::testing
