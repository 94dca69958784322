#include "reports/har.hpp"

#include "core/base64.hpp"
#include "core/text.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <ctime>
#include <map>

namespace conform::reports {
namespace {

namespace json = boost::json;

/// Text for a JSON string: invalid UTF-8 bytes become U+FFFD (headers only:
/// bodies that are not UTF-8 are written in base64).
std::string har_text_of(std::string_view s) {
  if (core::is_utf8(s)) return std::string(s);
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = core::utf8_sequence_length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s, i, n);
      i += n;
    }
  }
  return out;
}

/// A body as HAR text: as it is when UTF-8, else base64 with `encoding`.
void har_put_text(json::object& o, const std::string& body) {
  if (core::is_utf8(body)) {
    o["text"] = body;
  } else {
    o["text"] = core::base64_encode(body);
    o["encoding"] = "base64";
  }
}

json::array har_headers_of(const std::vector<std::pair<std::string, std::string>>& headers) {
  json::array out;
  for (const auto& [name, value] : headers) {
    out.push_back(json::object{{"name", har_text_of(name)}, {"value", har_text_of(value)}});
  }
  return out;
}

json::array har_query_of(std::string_view target) {
  json::array out;
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return out;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    const std::size_t eq = pair.find('=');
    out.push_back(json::object{
        {"name", har_text_of(core::percent_decode(pair.substr(0, eq), true))},
        {"value", eq == std::string_view::npos
                      ? std::string()
                      : har_text_of(core::percent_decode(pair.substr(eq + 1), true))}});
    if (amp == std::string_view::npos) break;
    rest = rest.substr(amp + 1);
  }
  return out;
}

std::string har_rfc3339_ms(std::chrono::system_clock::time_point t) {
  const auto since = t.time_since_epoch();
  const auto secs = std::chrono::duration_cast<std::chrono::seconds>(since);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(since - secs).count();
  const std::time_t tt = static_cast<std::time_t>(secs.count());
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms));
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
  return har_text_of(out);
}

}  // namespace

std::string har_entry(const harness::recorded_exchange& e, std::uint64_t seq) {
  const std::string method(http::method_name(e.request));
  json::object request{
      {"method", method},
      {"url", har_text_of(e.base_url + e.request.target)},
      {"httpVersion", "HTTP/1.1"},
      {"cookies", json::array{}},
      {"headers", har_headers_of(e.request.headers)},
      {"queryString", har_query_of(e.request.target)},
      {"headersSize", -1},
      {"bodySize", static_cast<std::int64_t>(e.request.body.size())},
  };
  if (!e.request.body.empty()) {
    json::object post{{"mimeType", har_text_of(e.request.find_header("Content-Type")
                                                   ? *e.request.find_header("Content-Type")
                                                   : std::string())}};
    har_put_text(post, e.request.body);
    request["postData"] = std::move(post);
  }
  json::object response{{"status", 0},
                        {"statusText", ""},
                        {"httpVersion", "HTTP/1.1"},
                        {"cookies", json::array{}},
                        {"headers", json::array{}},
                        {"content", json::object{{"size", 0}, {"mimeType", ""}}},
                        {"redirectURL", ""},
                        {"headersSize", -1},
                        {"bodySize", -1}};
  double total = 0, connect = -1;
  if (e.response) {
    const http::response& r = *e.response;
    std::vector<std::pair<std::string, std::string>> hs;
    for (const auto& h : r.headers) hs.emplace_back(h.name, h.value);
    const std::string* type = r.find(http::field::content_type);
    json::object content{{"size", static_cast<std::int64_t>(r.body.size())},
                         {"mimeType", har_text_of(type ? *type : std::string())}};
    har_put_text(content, r.body);
    response["status"] = r.status;
    response["httpVersion"] = r.version == 10 ? "HTTP/1.0" : "HTTP/1.1";
    response["headers"] = har_headers_of(hs);
    response["content"] = std::move(content);
    response["bodySize"] = static_cast<std::int64_t>(r.body.size());
    if (const std::string* location = r.find(http::field::location)) {
      response["redirectURL"] = har_text_of(*location);
    }
    total = har_ms_of(r.time.total);
    if (!r.reused_connection) connect = har_ms_of(r.time.connect);
  }
  json::array verdicts;
  for (const auto& v : e.verdicts) {
    json::object o{{"check", v.check}, {"verdict", harness::to_string(v.what)}};
    if (!v.cause.empty()) o["cause"] = har_text_of(v.cause);
    if (!v.expected.empty()) o["expected"] = har_text_of(v.expected);
    if (!v.seen.empty()) o["seen"] = har_text_of(v.seen);
    verdicts.push_back(std::move(o));
  }
  json::object conform{{"seq", seq},
                       {"phase", e.phase},
                       {"operation_id", e.operation_id},
                       {"method_path", e.method_path},
                       {"auth_model", e.auth_model},
                       {"mode", har_text_of(e.mode)},
                       {"mutation", e.mutation},
                       {"where", har_text_of(e.where)},
                       {"target", har_text_of(e.request.target)},
                       {"retries_429", e.retries_429},
                       {"secrets", json::value_from(e.secrets)},
                       {"verdicts", std::move(verdicts)}};
  if (!e.request.client_identity.empty()) conform["client_certificate"] = e.request.client_identity;
  if (!e.response) conform["error"] = har_text_of(e.error);
  json::object entry{
      {"startedDateTime", har_rfc3339_ms(e.started)},
      {"time", total},
      {"request", std::move(request)},
      {"response", std::move(response)},
      {"cache", json::object{}},
      {"timings", json::object{{"blocked", -1},
                               {"dns", -1},
                               {"connect", connect},
                               {"send", 0},
                               {"wait", connect > 0 ? std::max(0.0, total - connect) : total},
                               {"receive", 0},
                               {"ssl", -1}}},
      {"comment", har_comment_of(e)},
      {"_conform", std::move(conform)},
  };
  return json::serialize(entry);
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
  out_ << (entries_ == 0 ? "\n" : ",\n") << har_entry(e, entries_);
  ++entries_;
  if (!out_) error_ = "cannot write '" + path_ + "' (disk full?)";
}

bool har_file::close(const std::string& comment) {
  if (!out_.is_open()) return error_.empty();
  out_ << "\n],\"comment\":" << json::serialize(json::value(har_text_of(comment))) << "}}\n";
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
