// `conform certify --record FILE`: the client's traffic as HAR, one entry per
// request the certification judged, no secret of the server's profile in it,
// and the recording replays.
#include <gtest/gtest.h>

#include <unistd.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli.hpp"

namespace conform::cli {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(certify_record, the_clients_traffic_is_recorded_without_its_secrets) {
  const fs::path dir =
      fs::temp_directory_path() / ("conform-certify-rec-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto har = (dir / "client.har").string(), json = (dir / "c.json").string();
  std::ostringstream out, err;
  const int status = main_command(
      {"certify", "--seed", "3", "--json", json, "--record", har, "--", CONFORM_EXAMPLE_CLIENT},
      out, err);
  ASSERT_EQ(status, 0) << out.str() << err.str();
  const auto report = boost::json::parse(read_file(json));
  const std::string text = read_file(har);
  const auto v = boost::json::parse(text);
  const auto& entries = v.at("log").at("entries").as_array();
  EXPECT_EQ(entries.size(), report.at("requests").to_number<std::size_t>());
  EXPECT_EQ(text.find("pk_test_"), std::string::npos);
  EXPECT_EQ(text.find("tk_test_"), std::string::npos);
  std::size_t named = 0;
  for (const auto& e : entries) {
    EXPECT_EQ(e.at("_conform").at("phase"), "traffic");
    for (const auto& h : e.at("request").at("headers").as_array()) {
      const std::string name(h.at("name").as_string());
      EXPECT_NE(name, "REMOTE_ADDR");
      if (name == "X-Partner-Api-Key" || name == "X-Api-Key" || name == "Authorization") {
        EXPECT_NE(h.at("value").as_string().find("${"), boost::json::string::npos)
            << boost::json::serialize(h);
        ++named;
      }
    }
  }
  EXPECT_GT(named, 0u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace conform::cli
