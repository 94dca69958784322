// One verdict per (client, seed): the same client certified several times on
// the same seed, all at once (so that the machine is busy and the timing
// noisy), gets the same verdict, rule by rule, every time (issue 19,
// behaviour 3: a client with a constant 150 ms backoff was certified in 5 of
// 8 repeats of seed 2).
#include <gtest/gtest.h>

#include <functional>

#include "tests/certify/certify_support.hpp"

namespace conform::testing {
namespace {

/// The verdict and every rule's status, as one comparable line.
std::string verdict_of(const certify_run& r) {
  if (!r.report.is_object()) return "(no report) " + r.out;
  std::string out = r.report.at("certified").as_bool() ? "certified" : "refused";
  for (const auto& rule : r.report.at("rules").as_array()) {
    out += " " + std::string(rule.at("check").as_string()) + "=" +
           std::string(rule.at("status").as_string());
  }
  for (const auto& e : r.report.at("adversity").at("events").as_array()) {
    out += " " + std::string(e.at("kind").as_string()) +
           (e.at("survived").as_bool() ? ":survived" : ":lost");
  }
  return out;
}

TEST(repeat, the_same_client_and_seed_get_the_same_verdict_every_time) {
  struct client {
    std::vector<std::string> command;
    bool certified;
  };
  const std::vector<client> clients = {
      {{CONFORM_EXAMPLE_CLIENT}, true},
      {{CONFORM_EXAMPLE_CLIENT, "--defect", "constant-backoff"}, false}};
  constexpr int repeats = 3;
  std::vector<std::function<certify_run()>> jobs;
  for (const auto& c : clients) {
    for (std::uint64_t seed : {1, 2}) {
      for (int i = 0; i < repeats; ++i)
        jobs.push_back([c, seed] { return certify(seed, c.command); });
    }
  }
  const auto runs = all_at_once(jobs);
  std::size_t at = 0;
  for (const auto& c : clients) {
    for (std::uint64_t seed : {1, 2}) {
      SCOPED_TRACE(c.command.back() + " seed " + std::to_string(seed));
      const std::string first = verdict_of(runs[at]);
      EXPECT_EQ(first.starts_with("certified"), c.certified) << first;
      for (int i = 0; i < repeats; ++i) EXPECT_EQ(verdict_of(runs[at + i]), first);
      at += repeats;
    }
  }
}

}  // namespace
}  // namespace conform::testing
