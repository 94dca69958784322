#include "http/curl.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace conform::http {
namespace {

std::string sanitize_env_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool ok =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    out.push_back(ok ? c : '_');
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out.insert(out.begin(), '_');
  return out;
}

/// Control characters, and bytes that are not UTF-8 (a report must stay
/// valid UTF-8 and the command must still send the same bytes), need $'...'.
bool needs_ansi_c(std::string_view text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) {
                       const auto u = static_cast<unsigned char>(c);
                       return u < 0x20 || u == 0x7f;
                     }) ||
         !core::is_utf8(text);
}

std::string ansi_c_quote(std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out = "$'";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      // A UTF-8 character as is; a byte that starts none as \xNN.
      if (const std::size_t n = core::utf8_sequence_length(text, i); n > 0) {
        out.append(text.substr(i, n));
        i += n - 1;
      } else {
        out += "\\x";
        out.push_back(hex[u >> 4]);
        out.push_back(hex[u & 0xf]);
      }
      continue;
    }
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\'':
        out += "\\'";
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          out += "\\x";
          out.push_back(hex[u >> 4]);
          out.push_back(hex[u & 0xf]);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('\'');
  return out;
}

/// Renders pieces as one shell word: literals quoted, variables as "${NAME}".
std::string render_word(const std::vector<secret_redactor::piece>& pieces) {
  std::string out, literal;
  for (const auto& p : pieces) {
    if (p.variable) {
      if (!literal.empty()) out.append(shell_quote(literal));
      literal.clear();
      out.append("\"${").append(p.text).append("}\"");
    } else {
      literal.append(p.text);
    }
  }
  if (!literal.empty()) out.append(shell_quote(literal));
  if (out.empty()) out = "''";
  return out;
}

}  // namespace

secret_redactor& secret_redactor::secret_value(std::string secret, std::string env_name) {
  if (!secret.empty()) values_.emplace_back(std::move(secret), sanitize_env_name(env_name));
  // Longest first so that a secret containing another is replaced whole.
  std::stable_sort(values_.begin(), values_.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  return *this;
}

secret_redactor& secret_redactor::secret_header(std::string name, std::string env_name) {
  headers_.emplace_back(std::move(name), sanitize_env_name(env_name));
  return *this;
}

std::vector<secret_redactor::piece> secret_redactor::split(std::string_view text) const {
  // Each secret's next occurrence, found with find() rather than compared at
  // every position: a recorded body is kilobytes, and --record splits every
  // request and answer. At one position the first secret in values_ order
  // (the longest) wins, as a scan position by position would choose.
  std::vector<piece> out;
  std::vector<std::size_t> next(values_.size());
  for (std::size_t k = 0; k < values_.size(); ++k) next[k] = text.find(values_[k].first);
  std::size_t literal_start = 0;
  for (;;) {
    std::size_t best = values_.size();
    for (std::size_t k = 0; k < values_.size(); ++k) {
      if (next[k] != std::string_view::npos && (best == values_.size() || next[k] < next[best]))
        best = k;
    }
    if (best == values_.size()) break;
    const std::size_t at = next[best];
    if (at > literal_start) out.push_back({text.substr(literal_start, at - literal_start), false});
    out.push_back({values_[best].second, true});
    literal_start = at + values_[best].first.size();
    for (std::size_t k = 0; k < values_.size(); ++k) {
      if (next[k] != std::string_view::npos && next[k] < literal_start)
        next[k] = text.find(values_[k].first, literal_start);
    }
  }
  if (literal_start < text.size()) out.push_back({text.substr(literal_start), false});
  return out;
}

const std::string* secret_redactor::header_variable(std::string_view name) const {
  for (const auto& [header, env] : headers_) {
    if (iequals(header, name)) return &env;
  }
  return nullptr;
}

std::string shell_quote(std::string_view text) {
  if (needs_ansi_c(text)) return ansi_c_quote(text);
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
  return out;
}

std::string to_curl(const request& req, const url& base, const secret_redactor& redactor) {
  std::string out = "curl -sS -g";
  if (req.method == verb::head) {
    out += " -I";
  } else {
    out.append(" -X ").append(method_name(req));
  }
  std::string full = base.to_string();
  full.append(req.target);
  out.push_back(' ');
  out.append(render_word(redactor.split(full)));
  for (const auto& [name, value] : req.headers) {
    out.append(" -H ");
    if (const std::string* env = redactor.header_variable(name)) {
      std::vector<secret_redactor::piece> pieces = redactor.split(name);
      pieces.push_back({": ", false});
      pieces.push_back({*env, true});
      out.append(render_word(pieces));
    } else {
      std::string line = name;
      line.append(": ").append(value);
      out.append(render_word(redactor.split(line)));
    }
  }
  // curl sends `Accept: */*` of its own; a request without one is
  // reproduced only when that header is removed (`-H 'Accept:'`).
  if (!req.find_header("Accept")) out.append(" -H 'Accept:'");
  if (!req.body.empty()) {
    out.append(" --data-binary ");
    out.append(render_word(redactor.split(req.body)));
  }
  return out;
}

}  // namespace conform::http
