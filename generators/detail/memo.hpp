#pragma once
// Shrinkables that compute their value once. RapidCheck's shrinkables
// compute their value on every `value()` call: a map calls its function
// again, and a mapcat (gen::mapcat, gen::join, gen::weightedOneOf) runs its
// inner generator again, random draws and all. A filter asks for the value
// once to test it and its parent asks again, so each filter above a value
// (a request's, its parameter's, its string's) made it again: over a third
// of a request's generation time was this. These give the same values and
// the same shrinks, in the same order, and keep what they computed.
//
// A cached value is not guarded: a shrinkable made here, and every tree
// that holds one, belongs to one thread at a time (a tree shared between
// threads must be generated again from its seed by each).

#include <rapidcheck.h>

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace conform::generators::detail {

namespace memo_impl {

/// gen::mapcat's shrinkable, with the inner generator run once: the outer
/// value's shrinks first (each with its own inner value), then the inner
/// value's, as RapidCheck orders them.
template <typename T, typename Mapper>
class mapcat_shrinkable {
 public:
  using U = typename std::invoke_result_t<const Mapper&, T>::ValueType;

  mapcat_shrinkable(rc::Shrinkable<T> outer, std::shared_ptr<const Mapper> mapper, rc::Random r2,
                    int size)
      : outer_(std::move(outer)), mapper_(std::move(mapper)), r2_(std::move(r2)), size_(size) {}

  U value() const { return inner().value(); }

  rc::Seq<rc::Shrinkable<U>> shrinks() const {
    auto mapper = mapper_;
    auto r2 = r2_;
    const int size = size_;
    auto outer = rc::seq::map(outer_.shrinks(), [mapper, r2, size](rc::Shrinkable<T>&& s) {
      return rc::makeShrinkable<mapcat_shrinkable>(std::move(s), mapper, r2, size);
    });
    return rc::seq::concat(std::move(outer), inner().shrinks());
  }

 private:
  const rc::Shrinkable<U>& inner() const {
    if (!inner_) inner_.emplace((*mapper_)(outer_.value())(r2_, size_));
    return *inner_;
  }

  rc::Shrinkable<T> outer_;
  std::shared_ptr<const Mapper> mapper_;
  rc::Random r2_;
  int size_;
  mutable std::optional<rc::Shrinkable<U>> inner_;
};

}  // namespace memo_impl

/// rc::gen::mapcat, the same values and shrinks, its inner generator run
/// once per shrinkable instead of on every value() call.
template <typename T, typename Mapper>
rc::Gen<typename memo_impl::mapcat_shrinkable<T, std::decay_t<Mapper>>::U> mapcat(rc::Gen<T> g,
                                                                                  Mapper&& mapper) {
  using impl = memo_impl::mapcat_shrinkable<T, std::decay_t<Mapper>>;
  using U = typename impl::U;
  auto m = std::make_shared<const std::decay_t<Mapper>>(std::forward<Mapper>(mapper));
  return rc::Gen<U>([g = std::move(g), m](const rc::Random& random, int size) {
    rc::Random r1 = random;
    rc::Random r2 = r1.split();
    return rc::makeShrinkable<impl>(g(r1, size), m, std::move(r2), size);
  });
}

/// rc::gen::weightedOneOf (a weighted choice of generator, then its value),
/// through the mapcat above.
template <typename T>
rc::Gen<T> weighted_one_of(std::initializer_list<std::pair<std::size_t, rc::Gen<T>>> pairs) {
  return detail::mapcat(rc::gen::weightedElement(pairs), [](const rc::Gen<T>& g) { return g; });
}

template <typename T, typename Predicate>
std::optional<rc::Shrinkable<T>> kept_if(rc::Shrinkable<T> s,
                                         std::shared_ptr<const Predicate> pred);

namespace memo_impl {

/// A value that passed a filter, kept; its shrinks are the inner ones
/// that pass it too.
template <typename T, typename Predicate>
class kept_shrinkable {
 public:
  kept_shrinkable(rc::Shrinkable<T> inner, T value, std::shared_ptr<const Predicate> pred)
      : inner_(std::move(inner)), value_(std::move(value)), pred_(std::move(pred)) {}

  T value() const { return value_; }

  rc::Seq<rc::Shrinkable<T>> shrinks() const {
    auto pred = pred_;
    return rc::seq::mapMaybe(inner_.shrinks(),
                             [pred](rc::Shrinkable<T>&& c) -> rc::Maybe<rc::Shrinkable<T>> {
                               auto kept = detail::kept_if(std::move(c), pred);
                               if (!kept) return rc::Nothing;
                               return std::move(*kept);
                             });
  }

 private:
  rc::Shrinkable<T> inner_;
  T value_;
  std::shared_ptr<const Predicate> pred_;
};

}  // namespace memo_impl

/// `s` when `pred` holds for its value (computed once and kept), with the
/// shrinks for which it holds; nullopt otherwise. rc::shrinkable::filter,
/// the value tested kept and the predicate shared instead of copied into
/// every shrinkable.
template <typename T, typename Predicate>
std::optional<rc::Shrinkable<T>> kept_if(rc::Shrinkable<T> s,
                                         std::shared_ptr<const Predicate> pred) {
  T v = s.value();  // a throw goes up, as from rc::shrinkable::filter
  if (!(*pred)(v)) return std::nullopt;
  return rc::makeShrinkable<memo_impl::kept_shrinkable<T, Predicate>>(std::move(s), std::move(v),
                                                                      std::move(pred));
}

/// rc::gen::suchThat (100 samples, the size growing by one each, then a
/// GenerationFailure saying `what`, RapidCheck's message by default), with
/// the value it tested kept.
template <typename T, typename Predicate>
rc::Gen<T> such_that_kept(rc::Gen<T> g, Predicate pred,
                          std::string what =
                              "Gave up trying to generate value satisfying "
                              "predicate.") {
  auto p = std::make_shared<const Predicate>(std::move(pred));
  return rc::Gen<T>([g = std::move(g), p, what = std::move(what)](const rc::Random& random,
                                                                  int size) -> rc::Shrinkable<T> {
    rc::Random r(random);
    int current = size;
    for (int tries = 0; tries < 100; ++tries) {
      auto s = kept_if(g(r.split(), current), p);
      if (s) return std::move(*s);
      ++current;
    }
    throw rc::GenerationFailure(what);
  });
}

}  // namespace conform::generators::detail
