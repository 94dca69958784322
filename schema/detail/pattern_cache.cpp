// The compiled-pattern cache (a shared_mutex around a map that only grows),
// and PCRE2 with its limits.

#include "schema/detail/pattern_cache.hpp"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "core/limits.hpp"

namespace conform::schema::detail {

namespace {

namespace limits = core::limits;

/// ECMAScript over bytes, as closely as PCRE2 goes: `$` only at the very
/// end, `\uHHHH` escapes, `[]` and `[^]` classes, and no `\C`.
constexpr std::uint32_t compile_options =
    PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_BSUX | PCRE2_ALLOW_EMPTY_CLASS | PCRE2_NEVER_BACKSLASH_C;

pcre2_code* as_code(void* p) {
  return static_cast<pcre2_code*>(p);
}

/// One thread's match state: reused by every search of the thread, so a
/// search allocates nothing once the thread has warmed up.
struct thread_state {
  pcre2_match_data* data = nullptr;
  pcre2_match_context* context = nullptr;
  pcre2_jit_stack* jit_stack = nullptr;

  thread_state() {
    data = pcre2_match_data_create(1, nullptr);
    context = pcre2_match_context_create(nullptr);
    pcre2_set_match_limit(context, limits::max_pattern_match_steps);
    pcre2_set_depth_limit(context, limits::max_pattern_depth);
    pcre2_set_heap_limit(context, limits::max_pattern_heap_kib);
    jit_stack = pcre2_jit_stack_create(32u << 10, limits::max_pattern_jit_stack, nullptr);
    if (jit_stack != nullptr) pcre2_jit_stack_assign(context, nullptr, jit_stack);
  }
  ~thread_state() {
    pcre2_jit_stack_free(jit_stack);
    pcre2_match_context_free(context);
    pcre2_match_data_free(data);
  }
  thread_state(const thread_state&) = delete;
  thread_state& operator=(const thread_state&) = delete;
};

thread_state& state() {
  thread_local thread_state s;
  return s;
}

std::string error_text(int code) {
  PCRE2_UCHAR buf[256];
  if (pcre2_get_error_message(code, buf, sizeof buf) < 0) return "error " + std::to_string(code);
  return std::string(reinterpret_cast<const char*>(buf));
}

}  // namespace

compiled_pattern::compiled_pattern(std::string_view pattern) {
  simple_ = simple_pattern::compile(pattern);
  if (pattern.size() > limits::max_pattern_bytes) {
    error_ =
        "longer than the limit of " + std::to_string(limits::max_pattern_bytes) + " characters";
    simple_.reset();
    return;
  }
  pcre2_compile_context* ctx = pcre2_compile_context_create(nullptr);
  pcre2_set_parens_nest_limit(ctx, limits::max_pattern_groups_nesting);
  int err = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   compile_options, &err, &offset, ctx);
  pcre2_compile_context_free(ctx);
  if (code == nullptr) {
    error_ = error_text(err) + " at offset " + std::to_string(offset);
    simple_.reset();
    return;
  }
  code_ = code;
  jit_ = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
}

compiled_pattern::~compiled_pattern() {
  pcre2_code_free(as_code(code_));
}

search_outcome compiled_pattern::search(std::string_view text) const {
  if (simple_) {
    if (const auto found = simple_->matches(text)) {
      return *found ? search_outcome::match : search_outcome::no_match;
    }
  }
  thread_state& s = state();
  const auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  int rc = pcre2_match(as_code(code_), subject, text.size(), 0, 0, s.data, s.context);
  if (rc == PCRE2_ERROR_JIT_STACKLIMIT && jit_) {
    // The interpreter keeps its frames on the heap, within the heap limit.
    rc = pcre2_match(as_code(code_), subject, text.size(), 0, PCRE2_NO_JIT, s.data, s.context);
  }
  if (rc >= 0) return search_outcome::match;  // 0: matched, the one-pair ovector too small
  if (rc == PCRE2_ERROR_NOMATCH) return search_outcome::no_match;
  return search_outcome::too_costly;  // a match, depth or heap limit (or any other failure)
}

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

}  // namespace

const compiled_pattern& compile_pattern(std::string_view pattern) {
  cache& c = the_cache();
  {
    std::shared_lock lock(c.mutex);
    if (auto it = c.patterns.find(pattern); it != c.patterns.end()) return *it->second;
  }
  auto compiled = std::make_unique<compiled_pattern>(pattern);
  std::unique_lock lock(c.mutex);
  auto [it, inserted] = c.patterns.try_emplace(std::string(pattern), std::move(compiled));
  return *it->second;
}

}  // namespace conform::schema::detail
