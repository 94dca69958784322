// Regex subset -> generator: a recursive-descent parser into a small tree,
// then one RapidCheck generator per node (shrinking moves towards fewer
// repetitions and earlier alternatives, and stays inside the pattern).

#include "generators/detail/pattern.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "generators/detail/choice.hpp"
#include "generators/detail/lazy_tree.hpp"
#include "generators/detail/memo.hpp"

namespace conform::generators::detail {

namespace {

struct rx {
  enum class kind { set, seq, alt, repeat, anchor } k = kind::seq;
  std::vector<char> chars;       // set: the characters it may produce (sorted, unique)
  std::vector<rx> kids;          // seq / alt: parts; repeat: the one repeated node
  std::size_t min = 0, max = 0;  // repeat: bounds; anchor: 0 = '^', 1 = '$'
};

constexpr char first_printable = ' ';
constexpr char last_printable = '~';

std::vector<char> printable() {
  std::vector<char> out;
  for (char c = first_printable; c <= last_printable; ++c) out.push_back(c);
  return out;
}

void add_range(std::vector<char>& set, char from, char to) {
  for (int c = from; c <= to; ++c) set.push_back(static_cast<char>(c));
}

void add_digits(std::vector<char>& s) {
  add_range(s, '0', '9');
}
void add_word(std::vector<char>& s) {
  add_range(s, 'a', 'z');
  add_range(s, 'A', 'Z');
  add_digits(s);
  s.push_back('_');
}
void add_space(std::vector<char>& s) {
  s.push_back(' ');
  s.push_back('\t');
}

std::vector<char> normalise(std::vector<char> s) {
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

std::vector<char> complement(const std::vector<char>& s) {
  std::vector<char> out;
  for (char c : printable()) {
    if (!std::binary_search(s.begin(), s.end(), c)) out.push_back(c);
  }
  return out;
}

class parser {
 public:
  explicit parser(std::string_view p) : p_(p) {}

  rx parse() {
    rx out = alternation(true, true);
    if (pos_ != p_.size()) unsupported("unbalanced ')' at offset " + std::to_string(pos_));
    return out;
  }

  const std::string& error() const { return error_; }

 private:
  void unsupported(std::string why) {
    if (error_.empty()) error_ = std::move(why);
    pos_ = p_.size();
  }
  bool failed() const { return !error_.empty(); }
  bool at_end() const { return pos_ >= p_.size(); }
  char peek() const { return p_[pos_]; }

  rx alternation(bool at_start, bool at_end_ctx) {
    rx alt;
    alt.k = rx::kind::alt;
    alt.kids.push_back(sequence(at_start, at_end_ctx));
    while (!failed() && !at_end() && peek() == '|') {
      ++pos_;
      alt.kids.push_back(sequence(at_start, at_end_ctx));
    }
    if (alt.kids.size() == 1) return std::move(alt.kids.front());
    return alt;
  }

  rx sequence(bool at_start, bool at_end_ctx) {
    rx seq;
    seq.k = rx::kind::seq;
    while (!failed() && !at_end() && peek() != '|' && peek() != ')') {
      const bool first = seq.kids.empty();
      const char c = peek();
      if (c == '^') {
        ++pos_;
        if (!(at_start && first)) unsupported("'^' not at the start");
        seq.kids.push_back(rx{rx::kind::anchor});
        continue;
      }
      if (c == '$') {
        ++pos_;
        const bool last = at_end() || peek() == '|' || peek() == ')';
        if (!(at_end_ctx && last)) unsupported("'$' not at the end");
        rx end_anchor{rx::kind::anchor};
        end_anchor.min = 1;
        seq.kids.push_back(std::move(end_anchor));
        continue;
      }
      rx t = term(at_start && first, at_end_ctx);
      if (failed()) break;
      quantified(t);
      if (contains_end_anchor(t) && !(at_end() || peek() == '|' || peek() == ')')) {
        unsupported("'$' not at the end");
      }
      seq.kids.push_back(std::move(t));
    }
    return seq;
  }

  rx term(bool at_start, bool at_end_ctx) {
    const char c = peek();
    ++pos_;
    if (c == '(') {
      if (!at_end() && peek() == '?') {
        if (pos_ + 1 < p_.size() && p_[pos_ + 1] == ':') {
          pos_ += 2;
        } else {
          unsupported("lookaround or named group");
          return {};
        }
      }
      // A group may close the pattern, so anchors inside keep the end context;
      // the check on '$' placement within the group is conservative enough.
      rx inner = alternation(at_start, at_end_ctx);
      if (at_end() || peek() != ')') {
        unsupported("unclosed group");
        return {};
      }
      ++pos_;
      return inner;
    }
    if (c == '[') return char_class();
    if (c == '.') return set(complement({'\n', '\r'}));
    if (c == '\\') return escape();
    if (c == '*' || c == '+' || c == '?' || c == '{') {
      unsupported(std::string("quantifier '") + c + "' with nothing to repeat");
      return {};
    }
    if (c == ']' || c == '}') return set({c});
    if (static_cast<unsigned char>(c) >= 0x80 || c < first_printable) {
      unsupported("a character outside printable ASCII");
      return {};
    }
    return set({c});
  }

  static rx set(std::vector<char> chars) {
    rx r;
    r.k = rx::kind::set;
    r.chars = normalise(std::move(chars));
    return r;
  }

  /// After a backslash, outside a class.
  rx escape() {
    if (at_end()) {
      unsupported("trailing backslash");
      return {};
    }
    const char e = p_[pos_++];
    std::vector<char> s;
    switch (e) {
      case 'd':
        add_digits(s);
        return set(s);
      case 'w':
        add_word(s);
        return set(s);
      case 's':
        add_space(s);
        return set(s);
      case 'D':
        add_digits(s);
        return set(complement(normalise(s)));
      case 'W':
        add_word(s);
        return set(complement(normalise(s)));
      case 'S':
        add_space(s);
        return set(complement(normalise(s)));
      case 't':
        return set({'\t'});
      case 'n':
        return set({'\n'});
      case 'r':
        return set({'\r'});
      default:
        break;
    }
    if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9') ||
        static_cast<unsigned char>(e) >= 0x80) {
      unsupported(std::string("escape \\") + e);
      return {};
    }
    return set({e});
  }

  /// After '['.
  rx char_class() {
    bool negated = false;
    if (!at_end() && peek() == '^') {
      negated = true;
      ++pos_;
    }
    std::vector<char> s;
    bool first = true;
    while (!failed()) {
      if (at_end()) {
        unsupported("unclosed character class");
        return {};
      }
      char c = p_[pos_++];
      if (c == ']' && !first) break;
      first = false;
      if (c == '\\') {
        if (at_end()) {
          unsupported("trailing backslash");
          return {};
        }
        const char e = p_[pos_++];
        if (e == 'd') {
          add_digits(s);
          continue;
        }
        if (e == 'w') {
          add_word(s);
          continue;
        }
        if (e == 's') {
          add_space(s);
          continue;
        }
        if (e == 't' || e == 'n' || e == 'r') {
          c = e == 't' ? '\t' : e == 'n' ? '\n' : '\r';
        } else if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9')) {
          unsupported(std::string("escape \\") + e + " in a class");
          return {};
        } else {
          c = e;
        }
      } else if (static_cast<unsigned char>(c) >= 0x80) {
        unsupported("a character outside printable ASCII in a class");
        return {};
      }
      // A range a-z (a '-' before ']' is a literal).
      if (pos_ + 1 < p_.size() && peek() == '-' && p_[pos_ + 1] != ']') {
        ++pos_;
        char to = p_[pos_++];
        if (to == '\\') {
          if (at_end()) {
            unsupported("trailing backslash");
            return {};
          }
          to = p_[pos_++];
          if ((to >= 'a' && to <= 'z') || (to >= 'A' && to <= 'Z') || (to >= '0' && to <= '9')) {
            unsupported("a class escape as a range end");
            return {};
          }
        }
        if (to < c || static_cast<unsigned char>(to) >= 0x80) {
          unsupported("an invalid range in a class");
          return {};
        }
        add_range(s, c, to);
        continue;
      }
      s.push_back(c);
    }
    s = normalise(std::move(s));
    if (negated) s = complement(s);
    if (s.empty()) unsupported("a class that matches no printable character");
    return set(std::move(s));
  }

  bool read_number(std::size_t& out) {
    const std::size_t start = pos_;
    out = 0;
    while (!at_end() && peek() >= '0' && peek() <= '9') {
      out = out * 10 + static_cast<std::size_t>(peek() - '0');
      if (out > 100000) return false;
      ++pos_;
    }
    return pos_ > start;
  }

  void quantified(rx& t) {
    if (at_end()) return;
    std::size_t min = 0, max = 0;
    bool unbounded = false;
    const char c = peek();
    if (c == '?') {
      min = 0;
      max = 1;
      ++pos_;
    } else if (c == '*') {
      unbounded = true;
      ++pos_;
    } else if (c == '+') {
      min = 1;
      unbounded = true;
      ++pos_;
    } else if (c == '{') {
      const std::size_t save = pos_;
      ++pos_;
      if (!read_number(min)) {
        pos_ = save;  // a literal '{' in ECMAScript's annex B; keep it simple
        unsupported("'{' that is not a quantifier");
        return;
      }
      if (!at_end() && peek() == ',') {
        ++pos_;
        if (!at_end() && peek() == '}') {
          unbounded = true;
        } else if (!read_number(max)) {
          unsupported("malformed {n,m}");
          return;
        }
      } else {
        max = min;
      }
      if (at_end() || peek() != '}') {
        unsupported("malformed quantifier");
        return;
      }
      ++pos_;
      if (!unbounded && max < min) {
        unsupported("{n,m} with m < n");
        return;
      }
    } else {
      return;
    }
    if (!at_end() && peek() == '?') ++pos_;  // lazy: same language
    if (!at_end() && (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{')) {
      unsupported("a quantifier on a quantifier");
      return;
    }
    if (contains_anchor(t)) {
      unsupported("an anchor under a quantifier");
      return;
    }
    rx r;
    r.k = rx::kind::repeat;
    r.min = min;
    r.max = unbounded ? std::size_t(-1) : max;
    r.kids.push_back(std::move(t));
    t = std::move(r);
  }

  static bool contains_end_anchor(const rx& t) {
    if (t.k == rx::kind::anchor) return t.min == 1;
    return std::any_of(t.kids.begin(), t.kids.end(), contains_end_anchor);
  }

  static bool contains_anchor(const rx& t) {
    if (t.k == rx::kind::anchor) return true;
    return std::any_of(t.kids.begin(), t.kids.end(), contains_anchor);
  }

  std::string_view p_;
  std::size_t pos_ = 0;
  std::string error_;
};

rc::Gen<std::string> concat(rc::Gen<std::string> a, rc::Gen<std::string> b) {
  return rc::gen::map(rc::gen::tuple(std::move(a), std::move(b)),
                      [](const std::tuple<std::string, std::string>& t) {
                        return std::get<0>(t) + std::get<1>(t);
                      });
}

/// Appends the text a node's generator gives for (random, size), drawn
/// without its tree (detail/lazy_tree.hpp).
using draw_fn = std::function<void(const rc::Random&, int, std::string&)>;

/// The draw of a node that adds no text (an anchor, an empty sequence).
void draw_nothing(const rc::Random&, int, std::string&) {}

/// A node's generator, and its draw when every node under it has one (a
/// set that could not pick, or an alternation of nothing, has none: its
/// generator's failure says why).
struct node_gen {
  rc::Gen<std::string> tree;
  draw_fn draw;
};

node_gen to_gen(const rx& t, std::size_t max_repeat) {
  switch (t.k) {
    case rx::kind::anchor:
      return {rc::gen::just(std::string()), draw_nothing};
    case rx::kind::set: {
      node_gen g{
          rc::gen::map(rc::gen::elementOf(t.chars), [](char c) { return std::string(1, c); }),
          nullptr};
      if (!t.chars.empty()) {
        g.draw = [chars = t.chars](const rc::Random& r, int, std::string& out) {
          out += chars[draw_index(r, chars.size())];
        };
      }
      return g;
    }
    case rx::kind::seq: {
      if (t.kids.empty()) {
        return {rc::gen::just(std::string()), draw_nothing};
      }
      node_gen acc = to_gen(t.kids.front(), max_repeat);
      for (std::size_t i = 1; i < t.kids.size(); ++i) {
        if (t.kids[i].k == rx::kind::anchor) continue;
        node_gen next = to_gen(t.kids[i], max_repeat);
        draw_fn both;
        if (acc.draw && next.draw) {
          // gen::tuple: each part from its own split, in order.
          both = [a = std::move(acc.draw), b = next.draw](const rc::Random& r, int size,
                                                          std::string& out) {
            rc::Random rest = r;
            const rc::Random first = rest.split();
            const rc::Random second = rest.split();
            a(first, size, out);
            b(second, size, out);
          };
        }
        acc = {concat(std::move(acc.tree), std::move(next.tree)), std::move(both)};
      }
      return acc;
    }
    case rx::kind::alt: {
      std::vector<rc::Gen<std::string>> alts;
      std::vector<draw_fn> draws;
      bool drawn = !t.kids.empty();
      for (const rx& k : t.kids) {
        node_gen g = to_gen(k, max_repeat);
        alts.push_back(std::move(g.tree));
        drawn = drawn && static_cast<bool>(g.draw);
        draws.push_back(std::move(g.draw));
      }
      const std::size_t n = alts.size();
      node_gen g{detail::mapcat(pick_index(n),
                                [alts = std::move(alts)](std::size_t i) { return alts[i]; }),
                 nullptr};
      if (drawn) {
        // mapcat: the index from one split (pick_index: at the nominal
        // size), the alternative from the other.
        g.draw = [draws = std::move(draws)](const rc::Random& r, int size, std::string& out) {
          rc::Random index = r;
          const rc::Random rest = index.split();
          draws[draw_in_range(index, rc::kNominalSize, 0, draws.size())](rest, size, out);
        };
      }
      return g;
    }
    case rx::kind::repeat: {
      const std::size_t hi = t.max == std::size_t(-1) ? t.min + max_repeat : t.max;
      node_gen item = to_gen(t.kids.front(), max_repeat);
      node_gen g{detail::mapcat(rc::gen::inRange<std::size_t>(t.min, hi + 1),
                                [tree = item.tree](std::size_t n) {
                                  return rc::gen::map(
                                      rc::gen::container<std::vector<std::string>>(n, tree),
                                      [](const std::vector<std::string>& parts) {
                                        std::string out;
                                        for (const auto& p : parts) out += p;
                                        return out;
                                      });
                                }),
                 nullptr};
      if (item.draw) {
        g.draw = [min = t.min, hi, draw = std::move(item.draw)](const rc::Random& r, int size,
                                                                std::string& out) {
          draw_repeat(r, size, min, hi, draw, out);
        };
      }
      return g;
    }
  }
  return {rc::gen::just(std::string()), draw_nothing};
}

}  // namespace

std::variant<rc::Gen<std::string>, unsupported_pattern> pattern_generator(std::string_view pattern,
                                                                          std::size_t max_repeat) {
  parser p(pattern);
  rx tree = p.parse();
  if (!p.error().empty()) return unsupported_pattern{p.error()};
  node_gen g = to_gen(tree, max_repeat);
  if (!g.draw) return std::move(g.tree);
  return value_first(std::move(g.tree), [draw = std::move(g.draw)](const rc::Random& r, int size) {
    std::string out;
    draw(r, size, out);
    return out;
  });
}

}  // namespace conform::generators::detail
