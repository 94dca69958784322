#include "core/document.hpp"

#include "core/text.hpp"

#include <openssl/evp.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

#include "core/file.hpp"
#include "core/limits.hpp"
#include "core/parse.hpp"

namespace conform::core {

namespace {

std::string describe_scalar(const node& n) {
  if (!n.defined() || n.is_null()) return "null";
  if (n.is_map()) return "a mapping";
  if (n.is_sequence()) return "a sequence";
  return "'" + excerpt(n.text(), 80) + "'";  // a huge scalar is not echoed whole
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

/// The number of digits at `s[i]...`.
std::size_t digits(std::string_view s, std::size_t i) {
  std::size_t n = 0;
  while (i + n < s.size() && is_digit(s[i + n])) ++n;
  return n;
}

/// `[-+]?[0-9]+`, in one linear pass (std::regex recursed once per character).
bool looks_integer(std::string_view s) {
  const std::size_t sign = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  const std::size_t n = digits(s, sign);
  return n > 0 && sign + n == s.size();
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, in one linear pass.
bool looks_float(std::string_view s) {
  std::size_t i = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  const std::size_t whole = digits(s, i);
  i += whole;
  if (i < s.size() && s[i] == '.') {
    const std::size_t frac = digits(s, i + 1);
    if (whole == 0 && frac == 0) return false;
    i += 1 + frac;
  } else if (whole == 0) {
    return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    const std::size_t exp = digits(s, i);
    if (exp == 0) return false;
    i += exp;
  }
  return i == s.size();
}

std::optional<std::int64_t> parse_int(const std::string& s) {
  std::string_view v = s;
  if (!v.empty() && v.front() == '+') v.remove_prefix(1);
  std::int64_t out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || p != v.data() + v.size()) return std::nullopt;
  return out;
}

std::optional<double> parse_double(const std::string& s) {
  // strtod is locale-dependent only for the decimal point; YAML uses '.'.
  errno = 0;
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(d)) return std::nullopt;
  return d;
}

}  // namespace

scalar_kind classify(const node& n) {
  if (!n.defined() || n.is_null()) return scalar_kind::null;
  if (!n.is_scalar() || n.quoted()) return scalar_kind::string;
  const std::string& s = n.text();
  if (s == "~" || s == "null" || s == "Null" || s == "NULL") return scalar_kind::null;
  if (s == "true" || s == "True" || s == "TRUE" || s == "false" || s == "False" || s == "FALSE") {
    return scalar_kind::boolean;
  }
  if (looks_integer(s) && parse_int(s)) return scalar_kind::integer;
  if (looks_float(s) && parse_double(s)) return scalar_kind::number;
  return scalar_kind::string;
}

source_pos doc_reader::pos(const source_doc& doc, const node& n) {
  return source_pos{doc.display, static_cast<int>(n.line()), static_cast<int>(n.column())};
}

source_pos doc_reader::pos(const source_doc& doc, const node_entry& e) {
  return source_pos{doc.display, static_cast<int>(e.line), static_cast<int>(e.column)};
}

void doc_reader::error(const source_pos& at, std::string message) {
  out_->push_back(diagnostic{at, severity::error, std::move(message)});
}

void doc_reader::warning(const source_pos& at, std::string message) {
  out_->push_back(diagnostic{at, severity::warning, std::move(message)});
}

void doc_reader::note(const source_pos& at, std::string message) {
  out_->push_back(diagnostic{at, severity::note, std::move(message)});
}

std::size_t doc_reader::error_count() const {
  std::size_t n = 0;
  for (const auto& d : *out_) n += d.level == severity::error ? 1 : 0;
  return n;
}

bool doc_reader::expect_map(const source_doc& doc, const node& n, std::string_view what) {
  if (n.is_map()) return true;
  error(pos(doc, n), std::string(what) + " must be a mapping, got " + describe_scalar(n));
  return false;
}

bool doc_reader::expect_seq(const source_doc& doc, const node& n, std::string_view what) {
  if (n.is_sequence()) return true;
  error(pos(doc, n), std::string(what) + " must be a sequence, got " + describe_scalar(n));
  return false;
}

const node& doc_reader::required(const source_doc& doc, const node& map, std::string_view key,
                                 std::string_view what) {
  const node& n = map.get(key);
  if (!n.defined()) {
    error(pos(doc, map), std::string(what) + " lacks the required key '" + std::string(key) + "'");
  }
  return n;
}

std::optional<std::string> doc_reader::str(const source_doc& doc, const node& n,
                                           std::string_view what) {
  if (n.is_scalar() && classify(n) != scalar_kind::null) return n.text();
  error(pos(doc, n), std::string(what) + " must be a string, got " + describe_scalar(n));
  return std::nullopt;
}

std::optional<bool> doc_reader::boolean(const source_doc& doc, const node& n,
                                        std::string_view what) {
  if (n.is_scalar() && classify(n) == scalar_kind::boolean) {
    const std::string& s = n.text();
    return s == "true" || s == "True" || s == "TRUE";
  }
  error(pos(doc, n), std::string(what) + " must be true or false, got " + describe_scalar(n));
  return std::nullopt;
}

std::optional<std::int64_t> doc_reader::integer(const source_doc& doc, const node& n,
                                                std::string_view what) {
  if (n.is_scalar() && classify(n) == scalar_kind::integer) return parse_int(n.text());
  error(pos(doc, n), std::string(what) + " must be an integer, got " + describe_scalar(n));
  return std::nullopt;
}

std::optional<std::uint64_t> doc_reader::count(const source_doc& doc, const node& n,
                                               std::string_view what) {
  if (n.is_scalar() && classify(n) == scalar_kind::integer) {
    auto v = parse_int(n.text());
    if (v && *v >= 0) return static_cast<std::uint64_t>(*v);
  }
  error(pos(doc, n),
        std::string(what) + " must be a non-negative integer, got " + describe_scalar(n));
  return std::nullopt;
}

std::optional<double> doc_reader::number(const source_doc& doc, const node& n,
                                         std::string_view what) {
  if (n.is_scalar()) {
    const scalar_kind k = classify(n);
    if (k == scalar_kind::integer || k == scalar_kind::number) return parse_double(n.text());
  }
  error(pos(doc, n), std::string(what) + " must be a number, got " + describe_scalar(n));
  return std::nullopt;
}

std::optional<std::vector<std::string>> doc_reader::strings(const source_doc& doc, const node& n,
                                                            std::string_view what) {
  if (!expect_seq(doc, n, what)) return std::nullopt;
  std::vector<std::string> out;
  bool ok = true;
  std::size_t i = 0;
  for (const auto& item : n.items()) {
    auto s = str(doc, item, std::string(what) + "[" + std::to_string(i++) + "]");
    if (s) {
      out.push_back(*s);
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return out;
}

std::optional<std::vector<std::string>> doc_reader::string_or_strings(const source_doc& doc,
                                                                      const node& n,
                                                                      std::string_view what) {
  if (n.is_scalar()) {
    auto s = str(doc, n, what);
    if (!s) return std::nullopt;
    return std::vector<std::string>{*s};
  }
  return strings(doc, n, what);
}

bool doc_reader::status_code(const source_doc& doc, const node& n, std::string_view what,
                             int& status, std::string& code) {
  if (!expect_map(doc, n, what)) return false;
  const std::string w(what);
  const node& s = required(doc, n, "status", w);
  const node& c = required(doc, n, "error_code", w);
  bool ok = s.defined() && c.defined();
  if (s.defined()) {
    auto v = integer(doc, s, w + ".status");
    if (v && (*v < 100 || *v > 599)) {
      error(pos(doc, s), w + ".status must be an HTTP status 100-599, got " + s.text());
      v.reset();
    }
    if (v) {
      status = static_cast<int>(*v);
    } else {
      ok = false;
    }
  }
  if (c.defined()) {
    auto v = str(doc, c, w + ".error_code");
    if (v) {
      code = *v;
    } else {
      ok = false;
    }
  }
  return ok;
}

boost::json::value doc_reader::to_json(const node& n) {
  return core::to_json(n);
}

boost::json::value to_json(const node& n) {
  if (!n.defined() || n.is_null()) return nullptr;
  if (n.is_sequence()) {
    boost::json::array a;
    a.reserve(n.size());
    for (const auto& item : n.items()) a.push_back(to_json(item));
    return a;
  }
  if (n.is_map()) {
    boost::json::object o;
    o.reserve(n.size());
    for (const auto& e : n.entries()) o[e.key] = to_json(e.value);
    return o;
  }
  const std::string& s = n.text();
  switch (classify(n)) {
    case scalar_kind::null:
      return nullptr;
    case scalar_kind::boolean:
      return s == "true" || s == "True" || s == "TRUE";
    case scalar_kind::integer:
      return *parse_int(s);
    case scalar_kind::number:
      return *parse_double(s);
    case scalar_kind::string:
      break;
  }
  return boost::json::value(s);
}

doc_cache::doc_cache() : hashing_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) {
  EVP_DigestInit_ex(hashing_.get(), EVP_sha256(), nullptr);
}
doc_cache::~doc_cache() = default;

std::optional<std::string> read_text_file(const std::filesystem::path& file, doc_reader& r,
                                          const source_pos& where) {
  auto bytes = read_file(file);
  if (!bytes) {
    r.error(where, std::move(bytes).error());
    return std::nullopt;
  }
  return std::move(*bytes);
}

source_doc* doc_cache::load(const std::filesystem::path& file, const std::string& display,
                            doc_reader& r, const std::optional<source_pos>& at) {
  std::error_code ec;
  std::filesystem::path canon = std::filesystem::weakly_canonical(file, ec);
  const std::string key = ec ? file.string() : canon.string();
  if (root_dir_.empty()) root_dir_ = ec ? file.parent_path() : canon.parent_path();
  if (auto it = docs_.find(key); it != docs_.end()) return it->second.get();
  const source_pos where = at.value_or(source_pos{display, 0, 0});
  if (std::find(failed_.begin(), failed_.end(), key) != failed_.end()) return nullptr;

  std::optional<std::string> bytes = read_text_file(file, r, where);
  if (!bytes) {
    failed_.push_back(key);
    return nullptr;
  }
  parsed_document parsed = parse_document(*bytes, display);
  if (parsed.error) {
    failed_.push_back(key);
    r.error(parsed.error->pos, parsed.error->message);
    return nullptr;
  }

  auto doc = std::make_unique<source_doc>();
  doc->path = file;
  doc->display = display;
  doc->root = std::move(parsed.root);
  EVP_DigestUpdate(hashing_.get(), bytes->data(), bytes->size());
  source_doc* out = doc.get();
  docs_.emplace(key, std::move(doc));
  return out;
}

void doc_cache::set_root(const std::filesystem::path& folder) {
  std::error_code ec;
  const std::filesystem::path canon = std::filesystem::weakly_canonical(folder, ec);
  root_dir_ = ec ? folder : canon;
}

bool is_absolute_uri(std::string_view ref) {
  if (ref.empty() || std::isalpha(static_cast<unsigned char>(ref[0])) == 0) return false;
  for (std::size_t i = 1; i < ref.size(); ++i) {
    const char c = ref[i];
    if (c == ':') return true;
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '+' && c != '-' && c != '.')
      return false;
  }
  return false;
}

void doc_cache::set_base_uri(const source_doc& doc, std::string uri) {
  const std::size_t slash = uri.rfind('/');
  if (slash == std::string::npos) return;
  uri.resize(slash + 1);
  base_uris_.emplace_back(&doc, std::move(uri));
}

source_doc* doc_cache::load_beside(const source_doc& base, const std::string& relative,
                                   doc_reader& r, const source_pos& at) {
  if (is_absolute_uri(relative)) {
    for (const auto& [doc, uri] : base_uris_) {
      if (relative.size() <= uri.size() || relative.compare(0, uri.size(), uri) != 0) continue;
      return load_beside(*doc, relative.substr(uri.size()), r, at);
    }
    r.error(at, "$ref '" + relative +
                    "' names a remote document, which Conform does not fetch: save it beside "
                    "the description and refer to it by its path, or bundle the description "
                    "first (e.g. `npx @redocly/cli bundle`)");
    return nullptr;
  }
  const std::filesystem::path rel(relative);
  if (rel.is_absolute()) {
    r.error(at, "$ref '" + relative + "': an absolute path; a $ref names a file by its path " +
                    "relative to the description's folder");
    return nullptr;
  }
  const std::filesystem::path file = base.path.parent_path() / rel;
  // Inside the description's folder tree only, symbolic links resolved.
  std::error_code ec;
  const std::filesystem::path canon = std::filesystem::weakly_canonical(file, ec);
  const std::filesystem::path root = root_dir_.empty() ? base.path.parent_path() : root_dir_;
  const std::filesystem::path inside =
      ec ? std::filesystem::path() : canon.lexically_relative(root);
  if (ec || inside.empty() || *inside.begin() == "..") {
    r.error(at, "$ref '" + relative + "' names a file outside the description's folder '" +
                    root.string() + "' (--ref-root DIR lets $refs read the files under DIR)");
    return nullptr;
  }
  const std::filesystem::path display =
      std::filesystem::path(base.display).parent_path() / relative;
  return load(file, display.lexically_normal().string(), r, at);
}

std::string doc_cache::hash() const {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  // A copy: the bytes of files loaded later still go into the running hash.
  EVP_MD_CTX* copy = EVP_MD_CTX_new();
  EVP_MD_CTX_copy_ex(copy, hashing_.get());
  EVP_DigestFinal_ex(copy, md, &len);
  EVP_MD_CTX_free(copy);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 0xf];
  }
  return out;
}

namespace {

std::string unescape_token(std::string_view t) {
  const std::string pct = percent_decode(t);
  std::string out;
  for (std::size_t i = 0; i < pct.size(); ++i) {
    if (pct[i] == '~' && i + 1 < pct.size() && (pct[i + 1] == '0' || pct[i + 1] == '1')) {
      out += pct[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      out += pct[i];
    }
  }
  return out;
}

}  // namespace

const node& at_pointer(const node& root, std::string_view pointer) {
  const node* cur = &root;
  if (pointer.empty()) return *cur;
  if (pointer.front() != '/') return node::undefined();
  pointer.remove_prefix(1);
  while (true) {
    const std::size_t slash = pointer.find('/');
    const std::string token = unescape_token(pointer.substr(0, slash));
    if (cur->is_map()) {
      cur = &cur->get(token);
    } else if (cur->is_sequence()) {
      std::size_t idx = 0;
      auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), idx);
      if (ec != std::errc() || p != token.data() + token.size()) return node::undefined();
      cur = &cur->item(idx);
    } else {
      return node::undefined();
    }
    if (!cur->defined()) return *cur;
    if (slash == std::string_view::npos) break;
    pointer.remove_prefix(slash + 1);
  }
  return *cur;
}

}  // namespace conform::core
