#pragma once
// A filter that says what it could not find. RapidCheck's gen::suchThat
// gives up with "Gave up trying to generate value satisfying predicate.",
// which names neither the schema nor the keyword; a user reading it cannot
// tell a constraint Conform cannot satisfy from one nobody can.

#include <rapidcheck.h>

#include <string>
#include <utility>

namespace conform::generators::detail {

/// Values of `g` for which `pred` holds, tried as gen::suchThat does (100
/// samples, the size growing by one each); then a GenerationFailure saying
/// "no <what> in 100 tries".
template <typename T, typename Predicate>
rc::Gen<T> such_that(rc::Gen<T> g, Predicate pred, std::string what) {
  return rc::Gen<T>([g = std::move(g), pred = std::move(pred), what = std::move(what)](
                        const rc::Random& random, int size) -> rc::Shrinkable<T> {
    rc::Random r(random);
    int current = size;
    for (int tries = 0; tries < 100; ++tries) {
      auto s = rc::shrinkable::filter(g(r.split(), current), pred);
      if (s) return std::move(*s);
      ++current;
    }
    throw rc::GenerationFailure("no " + what + " in 100 tries");
  });
}

}  // namespace conform::generators::detail
