#pragma once
// What the generators check their values with. They make requests: a
// readOnly property belongs to the server (JSON Schema: a write of it may be
// "ignored or rejected"), so it is neither required in, nor judged in, nor
// sent with what they make (schema::direction::request).

#include "schema/validator.hpp"

namespace conform::generators::detail {

inline constexpr schema::validation_options request_checks{.way = schema::direction::request};

/// True for a property a request never carries (readOnly).
inline bool server_owned(const schema::schema& property) {
  return property.read_only || property.resolved().read_only;
}

}  // namespace conform::generators::detail
