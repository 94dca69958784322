#pragma once
// Values drawn without their shrink tree. A RapidCheck generator builds a
// tree of shrinkables for every value: for a string, a few nodes per
// character, each allocated, reference counted and asked for its value
// through a virtual call. A request needs the tree only when it fails and
// is shrunk. `value_first` pairs a generator with a function that draws the
// same value straight from the same random numbers; the tree is grown from
// the generator, with the same random state and size, only when its shrinks
// are asked for.
//
// The function must consume the random state exactly as the generator
// does (RapidCheck's own steps are spelled out below, one helper each);
// tests/generators/determinism_test.cpp pins the values and shrinks.

#include <rapidcheck.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace conform::generators::detail {

namespace lazy_impl {

/// A value drawn directly, and the generator whose tree has its shrinks.
template <typename T>
class drawn {
 public:
  drawn(T value, rc::Gen<T> tree, rc::Random random, int size)
      : value_(std::move(value)), tree_(std::move(tree)), random_(std::move(random)), size_(size) {}

  T value() const { return value_; }
  rc::Seq<rc::Shrinkable<T>> shrinks() const { return tree_(random_, size_).shrinks(); }

 private:
  T value_;
  rc::Gen<T> tree_;
  rc::Random random_;
  int size_;
};

}  // namespace lazy_impl

/// `tree`, its values drawn by `draw(random, size)` (which must give
/// exactly `tree(random, size).value()`), its tree grown only for shrinks.
template <typename T, typename Draw>
rc::Gen<T> value_first(rc::Gen<T> tree, Draw draw) {
  return rc::Gen<T>(
      [tree = std::move(tree), draw = std::move(draw)](const rc::Random& random, int size) {
        return rc::makeShrinkable<lazy_impl::drawn<T>>(draw(random, size), tree, random, size);
      });
}

// RapidCheck's steps, one each, as its generators take them.

/// rc::gen::inRange<T>(min, max)'s value (max > min): the range scaled by
/// the size, then one number of a copy of `random`.
inline std::uint64_t draw_in_range(const rc::Random& random, int size, std::uint64_t min,
                                   std::uint64_t max) {
  const std::uint64_t range = rc::gen::detail::scaleInteger(max - min - 1, size) + 1;
  return rc::Random(random).next() % range + min;
}

/// rc::gen::elementOf(c)'s index: one number of a copy of `random`.
inline std::size_t draw_index(const rc::Random& random, std::size_t n) {
  return static_cast<std::size_t>(rc::Random(random).next() % n);
}

/// The text of mapcat(inRange<size_t>(lo, hi + 1), n -> container(n, item))
/// (a count, then each item from its own split of the rest), each item
/// appended by `item(random, size, out)`.
template <typename Item>
void draw_repeat(const rc::Random& random, int size, std::size_t lo, std::size_t hi,
                 const Item& item, std::string& out) {
  rc::Random count = random;
  rc::Random rest = count.split();
  const auto n = static_cast<std::size_t>(draw_in_range(count, size, lo, hi + 1));
  for (std::size_t i = 0; i < n; ++i) item(rest.split(), size, out);
}

}  // namespace conform::generators::detail
