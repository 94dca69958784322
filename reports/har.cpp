#include "reports/har.hpp"

#include "core/base64.hpp"
#include "core/text.hpp"
#include "reports/json_text.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <tuple>
#include <vector>

namespace conform::reports {
namespace {

namespace json = boost::json;

/// A body as HAR text: as it is when UTF-8, else base64 with `encoding`.
void har_put_text(json_text& w, const std::string& body) {
  if (core::is_utf8(body)) {
    w.member("text", body);
  } else {
    w.member("text", core::base64_encode(body));
    w.member("encoding", "base64");
  }
}

/// `headers` as HAR's name-value objects; `name_value(h)` gives a header's two texts.
template <typename Headers, typename NameValue>
void har_headers(json_text& w, const Headers& headers, NameValue name_value) {
  w.key("headers");
  w.open_array();
  for (const auto& h : headers) {
    const auto [name, value] = name_value(h);
    w.open_object();
    w.text_member("name", name);
    w.text_member("value", value);
    w.close_object();
  }
  w.close_array();
}

void har_query(json_text& w, std::string_view target) {
  w.key("queryString");
  w.open_array();
  const std::size_t q = target.find('?');
  std::string_view rest = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    const std::size_t eq = pair.find('=');
    w.open_object();
    w.text_member("name", core::percent_decode(pair.substr(0, eq), true));
    w.text_member("value", eq == std::string_view::npos
                               ? std::string()
                               : core::percent_decode(pair.substr(eq + 1), true));
    w.close_object();
    if (amp == std::string_view::npos) break;
    rest = rest.substr(amp + 1);
  }
  w.close_array();
}

/// "2026-11-29T12:02:49.189Z": UTC by the calendar's arithmetic (gmtime_r
/// takes the time zone's lock on every call).
std::string har_rfc3339_ms(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  const auto ms = floor<milliseconds>(t);
  const auto day = floor<days>(ms);
  const year_month_day ymd(day);
  const hh_mm_ss<milliseconds> time(ms - day);
  char out[40];
  std::snprintf(out, sizeof out, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ",
                static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()), static_cast<int>(time.hours().count()),
                static_cast<int>(time.minutes().count()), static_cast<int>(time.seconds().count()),
                static_cast<int>(time.subseconds().count()));
  return out;
}

double har_ms_of(std::chrono::nanoseconds d) {
  return static_cast<double>(d.count()) / 1e6;
}

/// "coverage; valid; 6 checks passed" or "...; failed status_code_conformance (status 500)".
std::string har_comment_of(const harness::recorded_exchange& e) {
  std::string out = e.phase;
  if (!e.mode.empty()) out += "; " + e.mode;
  std::size_t passed = 0;
  std::string failed;
  for (const auto& v : e.verdicts) {
    if (v.what == harness::check_verdict::kind::pass) ++passed;
    if (v.what != harness::check_verdict::kind::violation) continue;
    failed += (failed.empty() ? "" : ", ") + v.check + " (" + v.cause + ")";
  }
  if (!e.verdicts.empty()) out += "; " + std::to_string(passed) + " checks passed";
  if (!failed.empty()) out += "; failed " + failed;
  if (!e.response) out += "; no answer: " + e.error;
  return out;
}

void har_request(json_text& w, const harness::recorded_exchange& e) {
  w.key("request");
  w.open_object();
  w.member("method", http::method_name(e.request));
  w.key("url");
  if (core::is_utf8(e.base_url) && core::is_utf8(e.request.target)) {
    w.raw_string_of(e.base_url, e.request.target);
  } else {
    w.text(e.base_url + e.request.target);
  }
  w.member("httpVersion", "HTTP/1.1");
  w.key("cookies");
  w.open_array();
  w.close_array();
  har_headers(w, e.request.headers, [](const auto& h) { return std::tie(h.first, h.second); });
  har_query(w, e.request.target);
  w.number_member("headersSize", std::int64_t{-1});
  w.number_member("bodySize", static_cast<std::int64_t>(e.request.body.size()));
  if (!e.request.body.empty()) {
    w.key("postData");
    w.open_object();
    const std::string* type = e.request.find_header("Content-Type");
    w.text_member("mimeType", type ? *type : std::string());
    har_put_text(w, e.request.body);
    w.close_object();
  }
  w.close_object();
}

void har_response(json_text& w, const harness::recorded_exchange& e) {
  w.key("response");
  w.open_object();
  const http::response* r = e.response ? &*e.response : nullptr;
  w.number_member("status", static_cast<std::int64_t>(r ? r->status : 0));
  w.member("statusText", "");
  w.member("httpVersion", r && r->version == 10 ? "HTTP/1.0" : "HTTP/1.1");
  w.key("cookies");
  w.open_array();
  w.close_array();
  static const std::vector<http::header> no_headers;
  har_headers(w, r ? r->headers : no_headers,
              [](const http::header& h) { return std::tie(h.name, h.value); });
  w.key("content");
  w.open_object();
  w.number_member("size", static_cast<std::int64_t>(r ? r->body.size() : 0));
  const std::string* type = r ? r->find(http::field::content_type) : nullptr;
  w.text_member("mimeType", type ? *type : std::string());
  if (r) har_put_text(w, r->body);
  w.close_object();
  const std::string* location = r ? r->find(http::field::location) : nullptr;
  w.text_member("redirectURL", location ? *location : std::string());
  w.number_member("headersSize", std::int64_t{-1});
  w.number_member("bodySize", r ? static_cast<std::int64_t>(r->body.size()) : std::int64_t{-1});
  w.close_object();
}

void har_timings(json_text& w, double total, double connect) {
  w.key("timings");
  w.open_object();
  w.number_member("blocked", std::int64_t{-1});
  w.number_member("dns", std::int64_t{-1});
  w.number_member("connect", connect);
  w.number_member("send", std::int64_t{0});
  w.number_member("wait", connect > 0 ? std::max(0.0, total - connect) : total);
  w.number_member("receive", std::int64_t{0});
  w.number_member("ssl", std::int64_t{-1});
  w.close_object();
}

void har_conform(json_text& w, const harness::recorded_exchange& e, std::uint64_t seq) {
  w.key("_conform");
  w.open_object();
  w.number_member("seq", seq);
  w.member("phase", e.phase);
  w.member("operation_id", e.operation_id);
  w.member("method_path", e.method_path);
  w.member("auth_model", e.auth_model);
  w.text_member("mode", e.mode);
  w.member("mutation", e.mutation);
  w.text_member("where", e.where);
  w.text_member("target", e.request.target);
  w.number_member("retries_429", std::uint64_t{e.retries_429});
  w.key("secrets");
  w.open_array();
  for (const auto& s : e.secrets) w.raw_string(s);
  w.close_array();
  w.key("verdicts");
  w.open_array();
  for (const auto& v : e.verdicts) {
    w.open_object();
    w.member("check", v.check);
    w.member("verdict", harness::to_string(v.what));
    if (!v.cause.empty()) w.text_member("cause", v.cause);
    if (!v.expected.empty()) w.text_member("expected", v.expected);
    if (!v.seen.empty()) w.text_member("seen", v.seen);
    w.close_object();
  }
  w.close_array();
  if (!e.request.client_identity.empty()) {
    w.member("client_certificate", e.request.client_identity);
  }
  if (!e.response) w.text_member("error", e.error);
  w.close_object();
}

/// Appends the entry of `e` to `out`.
void write_har_entry(std::string& out, const harness::recorded_exchange& e, std::uint64_t seq) {
  double total = 0, connect = -1;
  if (e.response) {
    total = har_ms_of(e.response->time.total);
    if (!e.response->reused_connection) connect = har_ms_of(e.response->time.connect);
  }
  json_text w(out);
  w.open_object();
  w.member("startedDateTime", har_rfc3339_ms(e.started));
  w.number_member("time", total);
  har_request(w, e);
  har_response(w, e);
  w.key("cache");
  w.open_object();
  w.close_object();
  har_timings(w, total, connect);
  w.text_member("comment", har_comment_of(e));
  har_conform(w, e, seq);
  w.close_object();
  w.finish();
}

}  // namespace

std::string har_entry(const harness::recorded_exchange& e, std::uint64_t seq) {
  std::string out;
  write_har_entry(out, e, seq);
  return out;
}

bool har_file::open(const har_log_info& info) {
  out_.open(path_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    error_ = "cannot write '" + path_ + "'";
    return false;
  }
  json::object conform{{"command", info.command}, {"seed", info.seed},
                       {"spec", info.spec_file},  {"spec_hash", info.spec_hash},
                       {"target", info.target},   {"started_at", info.started_at}};
  json::object creator{{"name", "conform"}, {"version", info.tool_version}};
  // The head and the opening of `entries`; each entry on a line of its own.
  std::string head = "{\"log\":{\"version\":\"1.2\",\"creator\":" + json::serialize(creator) +
                     ",\"pages\":[],\"_conform\":" + json::serialize(conform) + ",\"entries\":[";
  out_ << head;
  if (!out_) error_ = "cannot write '" + path_ + "'";
  return error_.empty();
}

void har_file::add(const harness::recorded_exchange& e) {
  if (!error_.empty() || !out_.is_open()) return;
  // Entries gather in one buffer, written a quarter of a megabyte at a
  // time: a stream writes anything over a kilobyte at once, one system call
  // per entry.
  pending_ += entries_ == 0 ? "\n" : ",\n";
  write_har_entry(pending_, e, entries_);
  ++entries_;
  if (pending_.size() >= kFlushBytes) flush();
}

void har_file::flush() {
  if (pending_.empty()) return;
  out_.write(pending_.data(), static_cast<std::streamsize>(pending_.size()));
  pending_.clear();
  if (!out_) error_ = "cannot write '" + path_ + "' (disk full?)";
}

bool har_file::close(const std::string& comment) {
  if (!out_.is_open()) return error_.empty();
  flush();
  out_ << "\n],\"comment\":" << json::serialize(json::value(utf8_text_of(comment))) << "}}\n";
  out_.close();
  if (!out_ && error_.empty()) error_ = "cannot write '" + path_ + "'";
  return error_.empty();
}

core::status write_traffic_har(const std::string& path, const harness::traffic& t,
                               const harness::certification_report& report,
                               const profile::target& server, const har_log_info& info,
                               std::chrono::system_clock::time_point started) {
  // The rules each exchange broke: a failure's evidence lines start "#<seq> ".
  std::map<std::uint64_t, std::vector<harness::recorded_verdict>> broke;
  for (const auto& f : report.run.failures) {
    for (const auto& line : f.evidence) {
      std::uint64_t seq = 0;
      if (line.size() < 2 || line[0] != '#' ||
          std::from_chars(line.data() + 1, line.data() + line.size(), seq).ec != std::errc()) {
        continue;
      }
      auto& v = broke[seq];
      if (std::none_of(v.begin(), v.end(), [&](const auto& x) { return x.check == f.check; })) {
        v.push_back(
            {f.check, harness::check_verdict::kind::violation, f.cause, f.expected, f.seen});
      }
    }
  }
  har_file file(path);
  if (!file.open(info)) return core::fail(file.error());
  const harness::exchange_recorder recorder(server);
  http::url base;
  if (auto parsed = http::parse_url(info.target); parsed.ok()) base = *parsed.value;
  for (const auto& e : t.exchanges) {
    http::result result;
    if (e.status != 0) {
      http::response r;
      r.status = e.status;
      for (const auto& [name, value] : e.response_headers) {
        r.headers.push_back({http::field::unknown, name, value});
      }
      r.body = e.response_body;
      r.time.total = std::chrono::duration_cast<std::chrono::nanoseconds>(e.answered - e.sent);
      result.outcome = std::move(r);
    } else {
      result.outcome =
          core::fail(http::transport_error{http::transport_error::kind::closed,
                                           "the server closed the connection without answering"});
    }
    std::string mode = "client traffic";
    if (!e.adversity.empty()) mode += "; scripted " + e.adversity;
    auto it = broke.find(e.seq);
    // The server's own notes of the connection are no headers the client sent.
    http::request sent = e.request;
    for (const char* note : {"REMOTE_ADDR", "REMOTE_PORT", "LOCAL_ADDR", "LOCAL_PORT"}) {
      sent.remove_header(note);
    }
    file.add(
        recorder.record("traffic", e.op, e.auth_model(), mode, base, sent, result, started + e.sent,
                        it == broke.end() ? std::vector<harness::recorded_verdict>{} : it->second));
  }
  if (!file.close(report.verdict)) return core::fail(file.error());
  return {};
}

har_writer::har_writer(std::string path, std::string command)
    : file_(std::move(path)), command_(std::move(command)) {
  // Created at once: a path that cannot be written stops the run before it starts.
  opened_ = file_.open(har_log_info{});
}

void har_writer::run_started(const harness::event::run_started& e) {
  if (!opened_) return;
  const harness::run_info& info = e.info;
  // Rewritten with the run's facts now that they are known (nothing was added yet).
  har_log_info log{info.tool_version, command_,    info.seed,      info.spec_file,
                   info.spec_hash,    info.target, info.started_at};
  file_.close("");
  opened_ = file_.open(log);
}

void har_writer::exchange_recorded(const harness::event::exchange_recorded& e) {
  file_.add(e.exchange);
}

void har_writer::run_finished(const harness::event::run_finished& e) {
  file_.close("conform " + command_ + " recorded " + std::to_string(file_.entries()) +
              " exchanges; exit status " + std::to_string(e.report.exit_code()));
}

}  // namespace conform::reports
