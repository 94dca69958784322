// The state machine checks against the reference server: clean, with the
// fault that lets a refused move through, and with a profile whose fixtures
// are missing or already moved (not run, with why; never a failure).

#include <gtest/gtest.h>
#include <httplib.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "reference/server.hpp"
#include "tests/support/servers.hpp"
#include "support.hpp"

namespace conform::suites {
namespace {

using test_support::scripted_server;
using testing::conform_result;
using testing::run_conform;

const std::string checks = "state_transitions,state_preconditions";

std::string str(const boost::json::value& v) {
  return std::string(v.as_string());
}

/// The not-run entries of the two state checks.
std::vector<boost::json::object> state_not_runs(const conform_result& r) {
  std::vector<boost::json::object> out;
  if (!r.report.contains("not_run")) return out;
  for (const auto& n : r.report.at("not_run").as_array()) {
    const std::string check = str(n.at("check"));
    if (check == "state_transitions" || check == "state_preconditions") {
      out.push_back(n.as_object());
    }
  }
  return out;
}

bool some_not_run(const conform_result& r, const std::string& operation_id,
                  const std::string& why_part) {
  for (const auto& n : state_not_runs(r)) {
    if (str(n.at("operation_id")) == operation_id &&
        str(n.at("why")).find(why_part) != std::string::npos) {
      return true;
    }
  }
  return false;
}

/// Cells of `check` on `operation_id` that passed at least once.
std::size_t passed_on(const conform_result& r, const std::string& check,
                      const std::string& operation_id) {
  std::size_t n = 0;
  for (const auto& c : r.report.at("cells").as_array()) {
    if (str(c.at("check")) == check && str(c.at("operation_id")) == operation_id &&
        c.at("passed").as_int64() > 0) {
      ++n;
    }
  }
  return n;
}

/// The reference server's profile in a file, edited by `edit`.
class profile_file {
 public:
  profile_file(const reference::server& srv, const std::function<void(std::string&)>& edit) {
    std::string text = srv.profile_yaml();
    edit(text);
    static int counter = 0;
    path_ =
        std::filesystem::temp_directory_path() / ("conform-states-" + std::to_string(::getpid()) +
                                                  "-" + std::to_string(++counter) + ".yaml");
    std::ofstream(path_) << text;
  }
  ~profile_file() { std::filesystem::remove(path_); }
  profile_file(const profile_file&) = delete;
  profile_file& operator=(const profile_file&) = delete;
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

TEST(states_suite, clean_reference_has_no_failures_and_nothing_not_run) {
  const auto r = run_conform({"--checks", checks});
  EXPECT_TRUE(r.failures("state_transitions").empty()) << r.out;
  EXPECT_TRUE(r.failures("state_preconditions").empty()) << r.out;
  EXPECT_TRUE(state_not_runs(r).empty()) << r.not_run_text();
  // Both campaign moves and the follow-up cancel, each with passes.
  EXPECT_EQ(r.cells_passed("state_transitions"), 3u);
  EXPECT_EQ(passed_on(r, "state_transitions", "launchCampaign"), 1u);
  EXPECT_EQ(passed_on(r, "state_transitions", "pauseCampaign"), 1u);
  EXPECT_EQ(passed_on(r, "state_transitions", "cancelFollowUp"), 1u);
  EXPECT_EQ(passed_on(r, "state_preconditions", "launchCampaign"), 1u);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(states_suite, invalid_transition_allowed_fails_pause_from_draft_and_paused) {
  const auto r = run_conform({"--checks", checks, "--fault", "invalid_transition_allowed"});
  const auto failures = r.failures("state_transitions");
  ASSERT_FALSE(failures.empty()) << r.out;
  std::set<std::string> causes;
  for (const auto& f : failures) {
    EXPECT_EQ(str(f.at("operation_id")), "pauseCampaign");
    EXPECT_NE(str(f.at("expected")).find("422 INVALID_STATE_TRANSITION"), std::string::npos);
    EXPECT_EQ(str(f.at("seen")), "200");
    // The read before and the move reproduce it.
    EXPECT_NE(str(f.at("curl")).find("/pause"), std::string::npos);
    EXPECT_EQ(str(f.at("curl")).find("tk_test_"), std::string::npos) << "a key leaked";
    causes.insert(str(f.at("cause")));
  }
  EXPECT_EQ(causes, (std::set<std::string>{"no move from draft, but not refused",
                                           "no move from paused, but not refused"}));
  EXPECT_TRUE(r.failures("state_preconditions").empty()) << r.out;
  EXPECT_NE(r.status, 0);
}

TEST(states_suite, a_second_run_on_moved_fixtures_says_not_run_and_does_not_fail) {
  reference::server srv(reference::server_config{});
  const profile_file profile(srv, [](std::string&) {});
  const auto first =
      run_conform({"--checks", checks, "--allow-destructive", "--profile", profile.path()});
  EXPECT_TRUE(first.failures().empty()) << first.out;
  EXPECT_TRUE(state_not_runs(first).empty()) << first.not_run_text();

  // The first run moved the draft campaign and cancelled the scheduled follow-up.
  const auto second =
      run_conform({"--checks", checks, "--allow-destructive", "--profile", profile.path()});
  EXPECT_TRUE(second.failures().empty()) << second.out;
  EXPECT_TRUE(some_not_run(second, "launchCampaign",
                           "fixture campaign_draft_id is in state running, not draft"))
      << second.not_run_text();
  EXPECT_TRUE(some_not_run(second, "cancelFollowUp",
                           "fixture follow_up_scheduled_id is in state cancelled, not scheduled"))
      << second.not_run_text();
  // The walk starts from the running campaign instead; the ended states
  // still refuse.
  EXPECT_EQ(passed_on(second, "state_transitions", "launchCampaign"), 1u);
  EXPECT_EQ(passed_on(second, "state_transitions", "pauseCampaign"), 1u);
  EXPECT_EQ(passed_on(second, "state_transitions", "cancelFollowUp"), 1u);
  // The precondition fixtures do not move.
  EXPECT_EQ(passed_on(second, "state_preconditions", "launchCampaign"), 1u);
}

TEST(states_suite, a_fixture_the_profile_lacks_is_not_run_with_why) {
  reference::server srv(reference::server_config{});
  const profile_file profile(srv, [&](std::string& text) {
    // t1 comes first in the profile: drop its fixtures only.
    for (const std::string name :
         {"follow_up_in_progress_id", "campaign_no_contacts_id", "campaign_draft_id"}) {
      const auto at = text.find(name + ":");
      ASSERT_NE(at, std::string::npos);
      const auto begin = text.rfind('\n', at) + 1;
      text.erase(begin, text.find('\n', at) + 1 - begin);
    }
  });
  // Without the stateful phase, which would make fresh campaigns for the
  // missing fixtures (tests/cli/depth_test.cpp): what the suite says alone.
  const auto r = run_conform(
      {"--checks", checks, "--allow-destructive", "--profile", profile.path(), "--no-stateful"});
  EXPECT_TRUE(r.failures().empty()) << r.out;
  EXPECT_TRUE(some_not_run(r, "cancelFollowUp",
                           "tenant t1 of the profile has no fixture follow_up_in_progress_id"))
      << r.not_run_text();
  EXPECT_TRUE(some_not_run(r, "launchCampaign",
                           "tenant t1 of the profile has no fixture campaign_no_contacts_id"))
      << r.not_run_text();
  // Without the initial state's fixture there is no walk: its refusal and
  // its move are not run; the other states' fixtures still refuse.
  EXPECT_TRUE(
      some_not_run(r, "pauseCampaign", "tenant t1 of the profile has no fixture campaign_draft_id"))
      << r.not_run_text();
  EXPECT_TRUE(some_not_run(r, "launchCampaign",
                           "tenant t1 of the profile has no fixture campaign_draft_id"))
      << r.not_run_text();
  EXPECT_EQ(passed_on(r, "state_transitions", "launchCampaign"), 1u);
  EXPECT_EQ(passed_on(r, "state_transitions", "pauseCampaign"), 1u);
  // The other refusals and the other precondition still ran.
  EXPECT_EQ(passed_on(r, "state_transitions", "cancelFollowUp"), 1u);
  EXPECT_EQ(passed_on(r, "state_preconditions", "launchCampaign"), 1u);
}

/// The quoted value of the first line `name: "value"` of `text`.
std::string fixture_value(const std::string& text, const std::string& name) {
  const auto at = text.find(name + ": \"");
  if (at == std::string::npos) return {};
  const auto begin = at + name.size() + 3;
  return text.substr(begin, text.find('"', begin) - begin);
}

// A walked fixture that lacks what a move needs gets the precondition's
// refusal from a correct server (D5.1): the move is untested, not failed.
TEST(states_suite, a_walked_fixture_that_fails_a_precondition_is_not_run_never_a_failure) {
  reference::server srv(reference::server_config{});
  const profile_file profile(srv, [&](std::string& text) {
    // t1 comes first: its initial-state fixture becomes the draft without contacts.
    const std::string draft = fixture_value(text, "campaign_draft_id");
    const std::string no_contacts = fixture_value(text, "campaign_no_contacts_id");
    ASSERT_FALSE(draft.empty());
    ASSERT_FALSE(no_contacts.empty());
    const auto at = text.find("campaign_draft_id: \"" + draft + "\"");
    text.replace(at, std::string("campaign_draft_id: \"" + draft + "\"").size(),
                 "campaign_draft_id: \"" + no_contacts + "\"");
  });
  const auto r =
      run_conform({"--checks", checks, "--allow-destructive", "--profile", profile.path()});
  EXPECT_TRUE(r.failures().empty()) << r.out;
  EXPECT_TRUE(some_not_run(r, "launchCampaign",
                           "fixture campaign_draft_id (draft) does not meet precondition "
                           "CAMPAIGN_HAS_NO_CONTACTS of launchCampaign"))
      << r.not_run_text();
  // Its refusals and the other states' still ran.
  EXPECT_EQ(passed_on(r, "state_transitions", "launchCampaign"), 1u);
  EXPECT_EQ(passed_on(r, "state_transitions", "pauseCampaign"), 1u);
  EXPECT_EQ(passed_on(r, "state_transitions", "cancelFollowUp"), 1u);
  EXPECT_EQ(passed_on(r, "state_preconditions", "launchCampaign"), 1u);
}

TEST(states_suite, an_operation_left_out_of_the_run_gets_no_cell_and_the_rest_still_runs) {
  const auto r = run_conform({"--checks", checks, "--exclude", "pauseCampaign"});
  EXPECT_TRUE(r.failures().empty()) << r.out;
  EXPECT_TRUE(state_not_runs(r).empty()) << r.not_run_text();
  for (const auto& c : r.report.at("cells").as_array()) {
    EXPECT_NE(str(c.at("operation_id")), "pauseCampaign");
  }
  EXPECT_EQ(passed_on(r, "state_transitions", "launchCampaign"), 1u);
  EXPECT_EQ(passed_on(r, "state_preconditions", "launchCampaign"), 1u);
}

/// A target that answers every request with `status` and a body that is not JSON.
scripted_server odd_server(int status) {
  return scripted_server([status](const httplib::Request&, httplib::Response& res) {
    res.status = status;
    // A rate limit that lasts past the client's retries, without the wait.
    if (status == 429) res.set_header("Retry-After", "0");
    res.set_content("<html>not what the description says</html>", "text/html");
  });
}

// A state that cannot be read is no failure of a move: every test that
// needed it is not run, with what the target answered.
TEST(states_suite, a_target_whose_reads_make_no_sense_is_not_run_never_failed) {
  for (const int status : {200, 500, 429}) {
    SCOPED_TRACE(status);
    auto odd = odd_server(status);
    reference::server srv(reference::server_config{});
    const profile_file profile(srv, [&](std::string& text) {
      const auto end = text.find('\n');
      ASSERT_EQ(text.rfind("base_url: ", 0), 0u);
      text.replace(0, end, "base_url: " + odd.base_url());
    });
    // No stateful walk: the suite reads the states itself, which is what is
    // judged; the walk judges none of its checks, and here learns nothing.
    const auto r = run_conform(
        {"--checks", checks, "--allow-destructive", "--profile", profile.path(), "--no-stateful"});
    EXPECT_TRUE(r.failures("state_transitions").empty()) << r.out;
    EXPECT_TRUE(r.failures("state_preconditions").empty()) << r.out;
    EXPECT_TRUE(some_not_run(r, "launchCampaign", "could not be read through listCampaigns"))
        << r.not_run_text();
    EXPECT_TRUE(some_not_run(r, "cancelFollowUp", "could not be read through getFollowUpEvents"))
        << r.not_run_text();
    EXPECT_EQ(r.cells_passed("state_transitions"), 0u);
  }
}

}  // namespace
}  // namespace conform::suites
