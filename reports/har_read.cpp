#include "reports/har_read.hpp"

#include "core/base64.hpp"

#include <boost/json.hpp>

namespace conform::reports {
namespace {

namespace json = boost::json;

constexpr std::size_t har_chunk_bytes = 64u << 10;
constexpr std::size_t har_max_entry_bytes = 64u << 20;  // a 16 MiB body, base64, twice, and more

/// Reads one entry's fields, each problem a JSON pointer and what is wrong.
class har_entry_reader {
 public:
  const json::object* object(const json::object& o, std::string_view key, const std::string& at,
                             bool required) {
    const json::value* v = o.if_contains(key);
    if (!v) {
      if (required) fail(at + "/" + std::string(key), "missing");
      return nullptr;
    }
    if (!v->is_object()) fail(at + "/" + std::string(key), "expected an object");
    return v->if_object();
  }
  std::optional<std::string> text(const json::object& o, std::string_view key,
                                  const std::string& at, bool required) {
    const json::value* v = o.if_contains(key);
    if (!v || v->is_null()) {
      if (required) fail(at + "/" + std::string(key), "missing");
      return std::nullopt;
    }
    if (!v->is_string()) {
      fail(at + "/" + std::string(key), "expected a string");
      return std::nullopt;
    }
    return std::string(v->get_string());
  }
  std::optional<std::int64_t> integer(const json::object& o, std::string_view key,
                                      const std::string& at) {
    const json::value* v = o.if_contains(key);
    if (!v) return std::nullopt;
    if (v->is_int64()) return v->get_int64();
    if (v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
    if (v->is_double()) return static_cast<std::int64_t>(v->get_double());
    fail(at + "/" + std::string(key), "expected a number");
    return std::nullopt;
  }
  std::vector<std::pair<std::string, std::string>> headers(const json::object& o,
                                                           const std::string& at) {
    std::vector<std::pair<std::string, std::string>> out;
    const json::value* v = o.if_contains("headers");
    if (!v) return out;
    if (!v->is_array()) {
      fail(at + "/headers", "expected an array");
      return out;
    }
    std::size_t i = 0;
    for (const auto& h : v->get_array()) {
      const std::string here = at + "/headers/" + std::to_string(i++);
      if (!h.is_object()) {
        fail(here, "expected an object with name and value");
        continue;
      }
      auto name = text(h.get_object(), "name", here, true);
      auto value = text(h.get_object(), "value", here, true);
      if (name && value) out.emplace_back(std::move(*name), std::move(*value));
    }
    return out;
  }
  /// A body: `text`, decoded when `encoding` is base64 (`_encoding` in postData).
  std::string body(const json::object& o, const std::string& at) {
    auto t = text(o, "text", at, false);
    if (!t) return {};
    auto enc = text(o, "encoding", at, false);
    if (!enc) enc = text(o, "_encoding", at, false);
    if (enc && *enc == "base64") {
      auto decoded = core::base64_decode(*t);
      if (!decoded) fail(at + "/text", "not base64");
      return decoded.value_or("");
    }
    return *t;
  }
  void fail(const std::string& at, const std::string& what) {
    if (error_.empty()) error_ = (at.empty() ? "/" : at) + ": " + what;
  }
  bool ok() const { return error_.empty(); }
  /// The first problem found ("" when none).
  const std::string& error() const { return error_; }

 private:
  std::string error_;
};

/// The path and query of an absolute URL ("/api/v1/items?x=1"), and its origin.
std::pair<std::string, std::string> har_split_url(const std::string& url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string::npos) return {"", url};
  const std::size_t path = url.find_first_of("/?", scheme + 3);
  if (path == std::string::npos) return {url, "/"};
  std::string target = url.substr(path);
  if (target.front() == '?') target.insert(target.begin(), '/');
  return {url.substr(0, path), target};
}

void har_read_conform(har_entry_reader& r, const json::object& c, harness::recorded_exchange& e) {
  const std::string at = "/_conform";
  if (auto seq = r.integer(c, "seq", at)) e.seq = static_cast<std::uint64_t>(*seq);
  e.phase = r.text(c, "phase", at, false).value_or("exchanges");
  e.operation_id = r.text(c, "operation_id", at, false).value_or("");
  e.method_path = r.text(c, "method_path", at, false).value_or("");
  e.auth_model = r.text(c, "auth_model", at, false).value_or("");
  e.mode = r.text(c, "mode", at, false).value_or("");
  e.mutation = r.text(c, "mutation", at, false).value_or("none");
  e.where = r.text(c, "where", at, false).value_or("");
  e.error = r.text(c, "error", at, false).value_or("");
  if (auto target = r.text(c, "target", at, false)) e.request.target = *target;
  if (auto id = r.text(c, "client_certificate", at, false)) e.request.client_identity = *id;
  if (auto retries = r.integer(c, "retries_429", at))
    e.retries_429 = static_cast<unsigned>(*retries);
  if (const json::value* s = c.if_contains("secrets")) {
    if (!s->is_array()) {
      r.fail(at + "/secrets", "expected an array of names");
    } else {
      for (const auto& n : s->get_array()) {
        if (n.is_string()) e.secrets.emplace_back(n.get_string());
      }
    }
  }
  if (const json::value* vs = c.if_contains("verdicts"); vs && vs->is_array()) {
    std::size_t i = 0;
    for (const auto& v : vs->get_array()) {
      const std::string here = at + "/verdicts/" + std::to_string(i++);
      if (!v.is_object()) continue;
      harness::recorded_verdict out;
      out.check = r.text(v.get_object(), "check", here, true).value_or("");
      const auto kind =
          harness::parse_verdict_kind(r.text(v.get_object(), "verdict", here, true).value_or(""));
      if (!kind) {
        r.fail(here + "/verdict", "expected pass, violation, not_applicable or not_run");
        continue;
      }
      out.what = *kind;
      out.cause = r.text(v.get_object(), "cause", here, false).value_or("");
      out.expected = r.text(v.get_object(), "expected", here, false).value_or("");
      out.seen = r.text(v.get_object(), "seen", here, false).value_or("");
      e.verdicts.push_back(std::move(out));
    }
  }
}

}  // namespace

core::outcome<harness::recorded_exchange> har_entry_from_json(const std::string& text) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec) return core::fail("not JSON: " + ec.message());
  if (!v.is_object()) return core::fail("/: expected an object");
  har_entry_reader r;
  const json::object& o = v.get_object();
  harness::recorded_exchange e;
  const json::object* req = r.object(o, "request", "", true);
  const json::object* res = r.object(o, "response", "", true);
  if (!req || !res) return core::fail(r.error());
  const auto method = r.text(*req, "method", "/request", true);
  const auto url = r.text(*req, "url", "/request", true);
  if (!method || !url) return core::fail(r.error());
  if (auto verb = http::parse_verb(*method); verb && http::method_name(*verb) == *method) {
    e.request.method = *verb;
  } else {
    e.request.method = http::verb::unknown;
    e.request.method_text = *method;
  }
  auto [origin, target] = har_split_url(*url);
  e.base_url = origin;
  e.request.target = target;
  for (auto& [name, value] : r.headers(*req, "/request")) {
    // The connection writes these itself; HTTP/2 pseudo-headers are not headers.
    if (name.empty() || name[0] == ':' || http::iequals(name, "Host") ||
        http::iequals(name, "Content-Length") || http::iequals(name, "Transfer-Encoding")) {
      continue;
    }
    e.request.headers.emplace_back(std::move(name), std::move(value));
  }
  if (const json::object* post = r.object(*req, "postData", "/request", false)) {
    e.request.body = r.body(*post, "/request/postData");
  }
  const auto status = r.integer(*res, "status", "/response");
  if (status && *status > 0) {
    http::response out;
    out.status = static_cast<unsigned>(*status);
    for (auto& [name, value] : r.headers(*res, "/response")) {
      out.headers.push_back({http::field::unknown, std::move(name), std::move(value)});
    }
    if (const json::object* content = r.object(*res, "content", "/response", false)) {
      out.body = r.body(*content, "/response/content");
    }
    e.response = std::move(out);
  }
  if (const json::object* c = r.object(o, "_conform", "", false)) {
    har_read_conform(r, *c, e);
  } else {
    e.phase.clear();  // not Conform's: no operation, mode or verdicts known
  }
  if (!r.ok()) return core::fail(r.error());
  return e;
}

har_reader::har_reader(const std::string& path) : path_(path), in_(path, std::ios::binary) {
  if (!in_) error_ = "cannot read '" + path + "'";
}

bool har_reader::fill() {
  if (eof_ || !in_) return false;
  buf_.erase(0, at_);
  at_ = 0;
  const std::size_t before = buf_.size();
  buf_.resize(before + har_chunk_bytes);
  in_.read(buf_.data() + before, static_cast<std::streamsize>(har_chunk_bytes));
  buf_.resize(before + static_cast<std::size_t>(in_.gcount()));
  if (in_.gcount() == 0) eof_ = true;
  return buf_.size() > before;
}

std::optional<std::string> har_reader::next_value() {
  std::string capture;
  int capture_depth = -1;
  bool header = false;
  for (;;) {
    if (at_ == buf_.size() && !fill()) {
      if (capture_depth >= 0 || !done_) {
        error_ = path_ + ": the file ends " +
                 (capture_depth >= 0 ? "inside entry " + std::to_string(count_)
                                     : std::string(entries_depth_ < 0 ? "before log.entries"
                                                                      : "before entries closes"));
      }
      return std::nullopt;
    }
    const char c = buf_[at_++];
    if (capture_depth >= 0) {
      capture += c;
      if (capture.size() > har_max_entry_bytes) {
        error_ = path_ + ": entry " + std::to_string(count_) + " is over " +
                 std::to_string(har_max_entry_bytes >> 20) + " MiB";
        return std::nullopt;
      }
    }
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
        last_string_ = token_;
        continue;
      }
      if (token_.size() < 256) token_ += c;
      continue;
    }
    auto key = [&](int d) -> const std::string& {
      static const std::string none;
      return d >= 0 && static_cast<std::size_t>(d) < keys_.size() ? keys_[d] : none;
    };
    switch (c) {
      case '"':
        in_string_ = true;
        token_.clear();
        break;
      case ':':
        if (keys_.size() <= static_cast<std::size_t>(depth_)) keys_.resize(depth_ + 1);
        keys_[depth_] = last_string_;
        break;
      case '{':
      case '[':
        if (capture_depth < 0) {
          const bool in_log = depth_ == 2 && key(1) == "log";
          if (c == '[' && in_log && key(2) == "entries") {
            entries_depth_ = depth_ + 1;
          } else if (c == '{' && depth_ == entries_depth_) {
            capture_depth = depth_;
            capture = "{";
          } else if (c == '{' && in_log && key(2) == "_conform" && entries_depth_ < 0) {
            capture_depth = depth_;
            capture = "{";
            header = true;
          }
        }
        ++depth_;
        if (keys_.size() <= static_cast<std::size_t>(depth_)) keys_.resize(depth_ + 1);
        keys_[depth_].clear();
        break;
      case '}':
      case ']':
        --depth_;
        if (capture_depth >= 0 && depth_ == capture_depth) {
          if (!header) return capture;
          boost::system::error_code ec;
          json::value v = json::parse(capture, ec);
          if (!ec && v.is_object()) {
            const auto& o = v.get_object();
            auto str = [&](const char* k) {
              const auto* x = o.if_contains(k);
              return x && x->is_string() ? std::string(x->get_string()) : std::string();
            };
            origin_ = {str("command"), str("spec"), str("spec_hash"), str("target")};
            if (const auto* seed = o.if_contains("seed"); seed && seed->is_uint64()) {
              origin_.seed = seed->get_uint64();
            } else if (seed && seed->is_int64() && seed->get_int64() >= 0) {
              origin_.seed = static_cast<std::uint64_t>(seed->get_int64());
            }
          }
          capture.clear();
          capture_depth = -1;
          header = false;
        } else if (c == ']' && entries_depth_ >= 0 && depth_ == entries_depth_ - 1) {
          done_ = true;
          return std::nullopt;
        }
        break;
      default:
        break;
    }
  }
}

std::optional<harness::recorded_exchange> har_reader::next() {
  if (!error_.empty() || done_) return std::nullopt;
  auto text = next_value();
  if (!text) return std::nullopt;
  auto e = har_entry_from_json(*text);
  if (!e) {
    error_ = path_ + ": entry " + std::to_string(count_) + ": " + e.error();
    return std::nullopt;
  }
  if (e->phase.empty()) e->seq = count_;
  ++count_;
  return std::move(e).value();
}

}  // namespace conform::reports
