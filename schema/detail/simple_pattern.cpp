#include "schema/detail/simple_pattern.hpp"

#include <limits>

namespace conform::schema::detail {
namespace {

constexpr std::uint32_t unbounded = std::numeric_limits<std::uint32_t>::max();

void add_range(std::bitset<256>& set, unsigned char from, unsigned char to) {
  for (unsigned c = from; c <= to; ++c) set.set(c);
}

/// \d \w \s and their upper-case complements; false for any other letter.
bool add_class_escape(std::bitset<256>& set, char e) {
  std::bitset<256> cls;
  switch (e) {
    case 'd':
    case 'D':
      add_range(cls, '0', '9');
      break;
    case 'w':
    case 'W':
      add_range(cls, '0', '9');
      add_range(cls, 'a', 'z');
      add_range(cls, 'A', 'Z');
      cls.set('_');
      break;
    case 's':
    case 'S':
      for (char c : {' ', '\t', '\n', '\r', '\f', '\v'}) cls.set(static_cast<unsigned char>(c));
      break;
    default:
      return false;
  }
  if (e == 'D' || e == 'W' || e == 'S') cls.flip();
  set |= cls;
  return true;
}

/// An escaped literal that means itself: punctuation only (letters and digits
/// after a backslash have special meanings we do not take on here).
bool literal_escape(char e) {
  const std::string_view punct = "\\/.^$|?*+()[]{}-";
  return punct.find(e) != std::string_view::npos;
}

}  // namespace

std::optional<simple_pattern> simple_pattern::compile(std::string_view p) {
  if (p.size() < 2 || p.front() != '^' || p.back() != '$') return std::nullopt;
  if (p.size() >= 3 && p[p.size() - 2] == '\\') return std::nullopt;  // an escaped '$'
  p = p.substr(1, p.size() - 2);
  simple_pattern out;
  std::size_t i = 0;
  while (i < p.size()) {
    atom a;
    const char c = p[i];
    if (c == '[') {
      ++i;
      bool negate = false;
      if (i < p.size() && p[i] == '^') {
        negate = true;
        ++i;
      }
      // A ']' right after '[' means different things to ECMAScript (an empty
      // class) and to POSIX (a literal): not simple.
      if (i < p.size() && p[i] == ']') return std::nullopt;
      bool closed = false;
      while (i < p.size()) {
        char m = p[i];
        if (m == ']') {
          closed = true;
          ++i;
          break;
        }
        unsigned char lo;
        if (m == '\\') {
          if (i + 1 >= p.size()) return std::nullopt;
          const char e = p[i + 1];
          i += 2;
          if (add_class_escape(a.bytes, e)) continue;
          if (!literal_escape(e)) return std::nullopt;
          lo = static_cast<unsigned char>(e);
        } else if (m == '[') {
          return std::nullopt;  // [:classes:] and friends
        } else {
          lo = static_cast<unsigned char>(m);
          ++i;
        }
        if (i + 1 < p.size() && p[i] == '-' && p[i + 1] != ']') {
          char h = p[i + 1];
          if (h == '\\' || h == '[') return std::nullopt;
          const auto hi = static_cast<unsigned char>(h);
          if (hi < lo) return std::nullopt;  // std::regex refuses it
          add_range(a.bytes, lo, hi);
          i += 2;
        } else {
          a.bytes.set(lo);
        }
      }
      if (!closed) return std::nullopt;
      if (negate) a.bytes.flip();
    } else if (c == '\\') {
      if (i + 1 >= p.size()) return std::nullopt;
      const char e = p[i + 1];
      if (!add_class_escape(a.bytes, e)) {
        if (!literal_escape(e)) return std::nullopt;
        a.bytes.set(static_cast<unsigned char>(e));
      }
      i += 2;
    } else if (std::string_view(".^$|()?*+{}]").find(c) != std::string_view::npos) {
      return std::nullopt;  // anything that is not a plain literal or class
    } else {
      a.bytes.set(static_cast<unsigned char>(c));
      ++i;
    }
    // An optional quantifier (greedy; a lazy '?' after it is not simple).
    if (i < p.size()) {
      const char q = p[i];
      if (q == '?' || q == '*' || q == '+') {
        a.min = q == '+' ? 1 : 0;
        a.max = q == '?' ? 1 : unbounded;
        ++i;
      } else if (q == '{') {
        const auto close = p.find('}', i);
        if (close == std::string_view::npos) return std::nullopt;
        const std::string_view body = p.substr(i + 1, close - i - 1);
        const auto comma = body.find(',');
        auto number = [](std::string_view s, std::uint32_t& v) {
          if (s.empty() || s.size() > 6) return false;
          v = 0;
          for (char d : s) {
            if (d < '0' || d > '9') return false;
            v = v * 10 + static_cast<std::uint32_t>(d - '0');
          }
          return true;
        };
        if (comma == std::string_view::npos) {
          if (!number(body, a.min)) return std::nullopt;
          a.max = a.min;
        } else {
          if (!number(body.substr(0, comma), a.min)) return std::nullopt;
          const auto rest = body.substr(comma + 1);
          if (rest.empty()) {
            a.max = unbounded;
          } else if (!number(rest, a.max) || a.max < a.min) {
            return std::nullopt;
          }
        }
        i = close + 1;
      }
      if (i < p.size() && (p[i] == '?' || p[i] == '*' || p[i] == '+' || p[i] == '{')) {
        return std::nullopt;  // lazy or stacked quantifiers
      }
    }
    out.atoms_.push_back(a);
  }
  return out;
}

bool simple_pattern::match_from(std::size_t k, std::string_view text, std::size_t at,
                                std::size_t& budget) const {
  if (budget == 0) return false;
  --budget;
  if (k == atoms_.size()) return at == text.size();
  const atom& a = atoms_[k];
  // Take as many as the atom allows, then give back one at a time.
  std::size_t n = 0;
  while (n < a.max && at + n < text.size() &&
         a.bytes.test(static_cast<unsigned char>(text[at + n]))) {
    ++n;
  }
  if (n < a.min) return false;
  for (;;) {
    if (match_from(k + 1, text, at + n, budget)) return true;
    if (n == a.min || budget == 0) return false;
    --n;
  }
}

std::optional<bool> simple_pattern::matches(std::string_view text) const {
  // Backtracking over quantified atoms can take exponential time
  // (`^a?a?a?aaa$`): past a budget of steps the answer is left to the
  // regex engine, which has limits of its own.
  std::size_t budget = max_steps;
  const bool found = match_from(0, text, 0, budget);
  if (budget == 0) return std::nullopt;
  return found;
}

}  // namespace conform::schema::detail
