// The compiled-pattern cache: a shared_mutex around a map that only grows.

#include "schema/detail/pattern_cache.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace conform::schema::detail {

namespace {

struct text_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct cache {
  std::shared_mutex mutex;
  std::unordered_map<std::string, std::unique_ptr<compiled_pattern>, text_hash, std::equal_to<>>
      patterns;
};

cache& the_cache() {
  static cache c;
  return c;
}

std::unique_ptr<compiled_pattern> compile(std::string_view pattern) {
  auto out = std::make_unique<compiled_pattern>();
  out->simple = simple_pattern::compile(pattern);
  try {
#if defined(__GLIBCXX__)
    // libstdc++'s default executor recurses once per input character and can
    // exhaust the stack on long strings; the polynomial (breadth-first) one
    // does not. It refuses back-references, hence the plain retry below.
    try {
      out->re.emplace(pattern.begin(), pattern.end(),
                      std::regex::ECMAScript | std::regex_constants::__polynomial);
      return out;
    } catch (const std::regex_error&) {
      out->re.reset();
    }
#endif
    out->re.emplace(pattern.begin(), pattern.end(), std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    out->re.reset();
    out->error = e.what();
  }
  return out;
}

}  // namespace

const compiled_pattern& compile_pattern(std::string_view pattern) {
  cache& c = the_cache();
  {
    std::shared_lock lock(c.mutex);
    if (auto it = c.patterns.find(pattern); it != c.patterns.end()) return *it->second;
  }
  auto compiled = compile(pattern);
  std::unique_lock lock(c.mutex);
  auto [it, inserted] = c.patterns.try_emplace(std::string(pattern), std::move(compiled));
  return *it->second;
}

}  // namespace conform::schema::detail
