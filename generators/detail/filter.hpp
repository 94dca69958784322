#pragma once
// A filter that says what it could not find. RapidCheck's gen::suchThat
// gives up with "Gave up trying to generate value satisfying predicate.",
// which names neither the schema nor the keyword; a user reading it cannot
// tell a constraint Conform cannot satisfy from one nobody can.

#include <rapidcheck.h>

#include <string>
#include <utility>

#include "generators/detail/memo.hpp"

namespace conform::generators::detail {

/// Values of `g` for which `pred` holds, tried as gen::suchThat does (100
/// samples, the size growing by one each); then a GenerationFailure saying
/// "no <what> in 100 tries". The value tested is kept (detail/memo.hpp).
template <typename T, typename Predicate>
rc::Gen<T> such_that(rc::Gen<T> g, Predicate pred, std::string what) {
  return such_that_kept(std::move(g), std::move(pred), "no " + what + " in 100 tries");
}

}  // namespace conform::generators::detail
