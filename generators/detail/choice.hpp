#pragma once
// Size-independent choices. rc::gen::inRange narrows with the generation
// size (at size 0 it always gives its minimum); a choice between branches or
// a coin for an optional part should not, so these run at the nominal size.

#include <rapidcheck.h>

#include <cstddef>

namespace conform::generators::detail {

/// An index in [0, n), uniform at every size; shrinks towards 0.
inline rc::Gen<std::size_t> pick_index(std::size_t n) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::size_t>(0, n));
}

/// True with `percent` chance (0..100), at every size; shrinks towards false.
inline rc::Gen<bool> chance(int percent) {
  return rc::gen::map(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 100)),
                      [percent](int x) { return x >= 100 - percent; });
}

}  // namespace conform::generators::detail
