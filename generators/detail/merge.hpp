#pragma once
// Folding `allOf` into one synthesized node, so that a generator can aim at
// all branches at once (the result is still filtered by the validator).

#include "schema/schema.hpp"

namespace conform::generators::detail {

/// A node equivalent to, or narrower than, `r` (resolved, with all_of) with
/// every allOf branch folded in and all_of empty; new nodes go to `scratch`.
/// Keywords that cannot be combined keep the first branch's value.
const schema::schema& fold_all_of(const schema::schema& r, schema::schema_arena& scratch);

/// A copy of `r` made in `scratch` with `extra` added to its all_of and
/// any_of / one_of removed: one alternative of a composition.
const schema::schema& with_branch(const schema::schema& r, const schema::schema& extra,
                                  schema::schema_arena& scratch);

}  // namespace conform::generators::detail
