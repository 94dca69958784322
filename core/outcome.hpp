#pragma once
// The one way a function says "this can fail": it returns a
// `core::outcome<T>`, a value or the error that kept it from being made
// (by default a message saying what and where). `core::status` is the same
// for functions with nothing to return. A failure is made by
// `core::fail(...)`, so a `T` that is itself a string stays unambiguous:
//
//   core::outcome<int> parse_port(std::string_view text) {
//     if (text.empty()) return core::fail("the port is empty");
//     return 8080;
//   }
//
// A result with positioned diagnostics (`core::parsed_document`,
// `openapi::load_result`) is the other, legitimate shape: many findings,
// each with its place. `http::result` holds an
// `outcome<response, transport_error>` with what the client did on the way.

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace conform::core {

/// The error side of an outcome, as `fail(...)` makes it.
template <class E>
struct failed {
  E error;
};

/// A failure carrying `error`, convertible to any outcome whose error type
/// can be made from it.
template <class E>
failed<std::decay_t<E>> fail(E&& error) {
  return {std::forward<E>(error)};
}

/// A failure carrying a message.
inline failed<std::string> fail(const char* message) {
  return {std::string(message)};
}

template <class T>
inline constexpr bool is_failed_v = false;
template <class E>
inline constexpr bool is_failed_v<failed<E>> = true;

/// A `T`, or the `E` that says why there is none.
template <class T, class E = std::string>
class [[nodiscard]] outcome {
 public:
  using value_type = T;
  using error_type = E;

  /// A value-initialised `T` (a member filled in later, as `http::result`'s).
  outcome() requires std::is_default_constructible_v<T> : v_(std::in_place_index<0>) {}

  /// A value; anything a `T` can be made from (not a failure, not an outcome).
  template <class U = T>
  requires(std::is_constructible_v<T, U&&> && !is_failed_v<std::remove_cvref_t<U>> &&
           !std::is_same_v<std::remove_cvref_t<U>, outcome>)
      outcome(U&& value)  // NOLINT(google-explicit-constructor): returned as a T
      : v_(std::in_place_index<0>, std::forward<U>(value)) {}

  /// A failure.
  template <class G>
  requires std::is_constructible_v<E, G&&> outcome(
      failed<G> f)  // NOLINT(google-explicit-constructor): returned as fail(...)
      : v_(std::in_place_index<1>, std::move(f.error)) {}

  /// True when there is a value.
  bool ok() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  /// The value; precondition ok().
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// The error; precondition !ok().
  const E& error() const& { return std::get<1>(v_); }
  E& error() & { return std::get<1>(v_); }
  E&& error() && { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, E> v_;
};

/// Success with nothing to return, or the `E` that says why not.
template <class E>
class [[nodiscard]] outcome<void, E> {
 public:
  using value_type = void;
  using error_type = E;

  /// Success.
  outcome() = default;

  /// A failure.
  template <class G>
  requires std::is_constructible_v<E, G&&> outcome(
      failed<G> f)  // NOLINT(google-explicit-constructor): returned as fail(...)
      : error_(std::in_place, std::move(f.error)) {}

  /// True on success.
  bool ok() const noexcept { return !error_.has_value(); }
  explicit operator bool() const noexcept { return ok(); }

  /// The error; precondition !ok().
  const E& error() const& { return *error_; }
  E& error() & { return *error_; }
  E&& error() && { return std::move(*error_); }

 private:
  std::optional<E> error_;
};

/// What a function with nothing to return says: success, or why not.
using status = outcome<void>;

}  // namespace conform::core
