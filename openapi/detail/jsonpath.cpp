#include "openapi/detail/jsonpath.hpp"

#include <algorithm>
#include <cctype>

namespace conform::openapi::detail::jsonpath {
namespace {

const char* const supported =
    "; Conform supports $, .name, ['name'], [N], [*], .*, ..name and [?(@.key == 'value')]";

class parser {
 public:
  explicit parser(const std::string& t) : t_(t) {}

  parsed run() {
    parsed out;
    if (t_.empty() || t_[0] != '$') return fail(out, 0, "a target starts with '$'");
    i_ = 1;
    while (i_ < t_.size()) {
      if (t_.compare(i_, 2, "..") == 0) {
        i_ += 2;
        if (i_ < t_.size() && t_[i_] == '*') {
          ++i_;
          out.steps.push_back({step::kind::descend_wildcard, "", 0, "", ""});
          continue;
        }
        if (i_ < t_.size() && t_[i_] == '[') {
          out.steps.push_back({step::kind::descend_self, "", 0, "", ""});
          continue;  // the bracket applies to the node and each descendant
        }
        std::string name = dotted_name();
        if (name.empty()) return fail(out, i_, "a name after '..'");
        out.steps.push_back({step::kind::descend_member, name, 0, "", ""});
      } else if (t_[i_] == '.') {
        ++i_;
        if (i_ < t_.size() && t_[i_] == '*') {
          ++i_;
          out.steps.push_back({step::kind::wildcard, "", 0, "", ""});
          continue;
        }
        std::string name = dotted_name();
        if (name.empty()) return fail(out, i_, "a name after '.'");
        out.steps.push_back({step::kind::member, name, 0, "", ""});
      } else if (t_[i_] == '[') {
        ++i_;
        if (!bracket(out)) return out;
      } else {
        return fail(out, i_, "'.' or '[' here");
      }
    }
    return out;
  }

 private:
  parsed& fail(parsed& out, std::size_t at, const std::string& wanted) {
    out.error = "unsupported JSONPath at character " + std::to_string(at + 1) + " (expected " +
                wanted + ")" + supported;
    out.error_at = at;
    return out;
  }

  std::string dotted_name() {
    const std::size_t start = i_;
    while (i_ < t_.size() && t_[i_] != '.' && t_[i_] != '[') ++i_;
    return t_.substr(start, i_ - start);
  }

  void spaces() {
    while (i_ < t_.size() && t_[i_] == ' ') ++i_;
  }

  std::optional<std::string> quoted() {
    if (i_ >= t_.size() || (t_[i_] != '\'' && t_[i_] != '"')) return std::nullopt;
    const char q = t_[i_++];
    std::string out;
    while (i_ < t_.size() && t_[i_] != q) {
      if (t_[i_] == '\\' && i_ + 1 < t_.size()) ++i_;
      out += t_[i_++];
    }
    if (i_ >= t_.size()) return std::nullopt;
    ++i_;
    return out;
  }

  bool close(parsed& out) {
    spaces();
    if (i_ >= t_.size() || t_[i_] != ']') {
      fail(out, i_, "']'");
      return false;
    }
    ++i_;
    return true;
  }

  bool bracket(parsed& out) {
    spaces();
    if (i_ < t_.size() && t_[i_] == '*') {
      ++i_;
      out.steps.push_back({step::kind::wildcard, "", 0, "", ""});
      return close(out);
    }
    if (auto name = quoted()) {
      out.steps.push_back({step::kind::member, *name, 0, "", ""});
      return close(out);
    }
    if (i_ < t_.size() && (std::isdigit(static_cast<unsigned char>(t_[i_])) || t_[i_] == '-')) {
      const std::size_t start = i_++;
      while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_]))) ++i_;
      try {
        out.steps.push_back(
            {step::kind::index, "", std::stol(t_.substr(start, i_ - start)), "", ""});
      } catch (const std::exception&) {
        fail(out, start, "an index");
        return false;
      }
      return close(out);
    }
    if (i_ < t_.size() && t_[i_] == '?') return filter(out);
    fail(out, i_, "'name', N, * or ?(...)");
    return false;
  }

  bool filter(parsed& out) {
    ++i_;
    spaces();
    const bool paren = i_ < t_.size() && t_[i_] == '(';
    if (paren) ++i_;
    spaces();
    if (t_.compare(i_, 2, "@.") != 0) {
      fail(out, i_, "'@.key' in a filter");
      return false;
    }
    i_ += 2;
    step s{step::kind::filter, "", 0, "", ""};
    const std::size_t start = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_' ||
                              t_[i_] == '-' || t_[i_] == '.' || t_[i_] == '$')) {
      ++i_;
    }
    s.name = t_.substr(start, i_ - start);
    if (s.name.empty()) {
      fail(out, i_, "a key after '@.'");
      return false;
    }
    spaces();
    if (t_.compare(i_, 2, "==") == 0 || t_.compare(i_, 2, "!=") == 0) {
      s.op = t_.substr(i_, 2);
      i_ += 2;
      spaces();
      if (auto v = quoted()) {
        s.value = *v;
      } else {
        const std::size_t vs = i_;
        while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) ||
                                  t_[i_] == '.' || t_[i_] == '-')) {
          ++i_;
        }
        s.value = t_.substr(vs, i_ - vs);
        if (s.value.empty()) {
          fail(out, i_, "a 'quoted' value, a number, true or false");
          return false;
        }
      }
      spaces();
    } else if (i_ < t_.size() && t_[i_] != ')' && t_[i_] != ']') {
      fail(out, i_, "== or != (no other comparison or logic is supported)");
      return false;
    }
    if (paren) {
      if (i_ >= t_.size() || t_[i_] != ')') {
        fail(out, i_, "')'");
        return false;
      }
      ++i_;
    }
    out.steps.push_back(s);
    return close(out);
  }

  const std::string& t_;
  std::size_t i_ = 0;
};

/// Every child of `m.value` as a match.
void children(const match& m, std::vector<match>& out) {
  const auto& entries = m.value->entries();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    match k{m.path, entries[i].key, false, &entries[i].value};
    k.path.push_back(i);
    out.push_back(std::move(k));
  }
  const auto& items = m.value->items();
  for (std::size_t i = 0; i < items.size(); ++i) {
    match k{m.path, "", true, &items[i]};
    k.path.push_back(i);
    out.push_back(std::move(k));
  }
}

void descend(const match& m, const step& s, std::vector<match>& out) {
  std::vector<match> kids;
  children(m, kids);
  for (const auto& k : kids) {
    if (s.what == step::kind::descend_wildcard || (!k.in_sequence && k.key == s.name)) {
      out.push_back(k);
    }
    descend(k, s, out);
  }
}

bool passes(const node& n, const step& s) {
  if (!n.is_map()) return false;
  const node* cur = &n;
  std::size_t at = 0;
  while (true) {
    const std::size_t dot = s.name.find('.', at);
    const std::string key = s.name.substr(at, dot == std::string::npos ? dot : dot - at);
    cur = &cur->get(key);
    if (!cur->defined()) return false;
    if (dot == std::string::npos) break;
    at = dot + 1;
  }
  if (s.op.empty()) return true;
  const bool equal = cur->is_scalar() && cur->text() == s.value;
  return s.op == "==" ? equal : !equal;
}

}  // namespace

parsed parse(const std::string& text) {
  return parser(text).run();
}

std::vector<match> select(const node& root, const std::vector<step>& path) {
  std::vector<match> cur{{{}, "", false, &root}};
  for (const auto& s : path) {
    std::vector<match> next;
    for (const auto& m : cur) {
      switch (s.what) {
        case step::kind::member: {
          const auto& entries = m.value->entries();
          for (std::size_t i = 0; i < entries.size(); ++i) {
            if (entries[i].key != s.name) continue;
            match k{m.path, s.name, false, &entries[i].value};
            k.path.push_back(i);
            next.push_back(std::move(k));
          }
          break;
        }
        case step::kind::index: {
          if (!m.value->is_sequence()) break;
          const long size = static_cast<long>(m.value->size());
          const long i = s.index < 0 ? size + s.index : s.index;
          if (i >= 0 && i < size) {
            match k{m.path, "", true, &m.value->item(static_cast<std::size_t>(i))};
            k.path.push_back(static_cast<std::size_t>(i));
            next.push_back(std::move(k));
          }
          break;
        }
        case step::kind::wildcard:
          children(m, next);
          break;
        case step::kind::descend_member:
        case step::kind::descend_wildcard:
          descend(m, s, next);
          break;
        case step::kind::descend_self: {
          next.push_back(m);
          const step all{step::kind::descend_wildcard, "", 0, "", ""};
          descend(m, all, next);
          break;
        }
        case step::kind::filter: {
          std::vector<match> kids;
          children(m, kids);
          for (auto& k : kids) {
            if (passes(*k.value, s)) next.push_back(std::move(k));
          }
          break;
        }
      }
    }
    cur = std::move(next);
  }
  // Once each, in document order (`$..a..b` can reach a node twice).
  std::sort(cur.begin(), cur.end(), [](const match& a, const match& b) { return a.path < b.path; });
  cur.erase(std::unique(cur.begin(), cur.end(),
                        [](const match& a, const match& b) { return a.path == b.path; }),
            cur.end());
  return cur;
}

}  // namespace conform::openapi::detail::jsonpath
