#pragma once
// `--record FILE`: the exchanges of a run as HAR 1.2 (docs/recording.md),
// written one entry at a time as the run goes, so that memory stays flat.
// Each entry carries what Conform knows beyond HAR in a `_conform` field
// (phase, operation, auth model, mode, the checks' verdicts, the ${NAME}s
// standing for secrets) and a one-line `comment`. Nothing secret is written:
// the exchanges arrive redacted (harness/recorded.hpp).

#include <cstdint>
#include <fstream>
#include <string>

#include "core/outcome.hpp"
#include "harness/certification.hpp"
#include "harness/listener.hpp"
#include "harness/recorded.hpp"
#include "harness/traffic.hpp"
#include "profile/profile.hpp"

namespace conform::reports {

/// What the log says of the run that made it.
struct har_log_info {
  std::string tool_version;
  std::string command;  // "run", "certify"
  std::uint64_t seed = 0;
  std::string spec_file;
  std::string spec_hash;
  std::string target;  // base URL
  std::string started_at;
};

/// A HAR file written entry by entry.
class har_file {
 public:
  explicit har_file(std::string path) : path_(std::move(path)) {}
  /// Creates the file and writes the log's head; false (error() says why) when it cannot.
  bool open(const har_log_info& info);
  /// Appends one entry (numbered from 0 in the order added).
  void add(const harness::recorded_exchange& e);
  /// Writes the tail with `comment` and closes; false when a write failed.
  bool close(const std::string& comment);
  /// Empty, or why the file could not be written.
  const std::string& error() const { return error_; }
  std::uint64_t entries() const { return entries_; }

 private:
  std::string path_;
  std::ofstream out_;
  std::uint64_t entries_ = 0;
  std::string error_;
  void flush();
  static constexpr std::size_t kFlushBytes = 256 * 1024;
  std::string pending_;  // entries not yet written to the file
};

/// The HAR entry of `e` as one line of JSON (without a trailing newline).
std::string har_entry(const harness::recorded_exchange& e, std::uint64_t seq);

/// `conform certify --record FILE`: the client's traffic `t` as HAR, every
/// exchange redacted for `server` (the certification server's profile) and
/// carrying the client rules whose failures cite it. `started` is when the
/// recording began (the traffic's times count from it). The error says why
/// the file could not be written.
core::status write_traffic_har(const std::string& path, const harness::traffic& t,
                               const harness::certification_report& report,
                               const profile::target& server, const har_log_info& info,
                               std::chrono::system_clock::time_point started);

/// The listener behind `conform run --record FILE`.
class har_writer final : public harness::listener {
 public:
  /// Creates `path` now, so that a bad path stops the run before it starts.
  explicit har_writer(std::string path, std::string command = "run");
  void run_started(const harness::event::run_started& e) override;
  void exchange_recorded(const harness::event::exchange_recorded& e) override;
  bool records_exchanges() const override { return error().empty(); }
  void run_finished(const harness::event::run_finished& e) override;
  const std::string& error() const { return file_.error(); }

 private:
  har_file file_;
  std::string command_;
  bool opened_ = false;
};

}  // namespace conform::reports
