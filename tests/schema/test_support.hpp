#pragma once
// Shared helpers of the schema tests: schemas written as JSON text.

#include <boost/json/parse.hpp>

#include <string_view>

#include "schema/from_json.hpp"
#include "schema/validator.hpp"

namespace conform::schema::testing {

/// Owns the nodes of the schemas a test builds.
class schemas {
 public:
  /// The schema written as JSON text.
  const schema& operator()(std::string_view json) {
    return schema_from_json(arena_, boost::json::parse(json));
  }

 private:
  schema_arena arena_;
};

/// Validates JSON text against a schema.
inline validation_result check(const schema& s, std::string_view json) {
  return validate(s, boost::json::parse(json));
}

inline bool valid(const schema& s, std::string_view json) {
  return check(s, json).ok();
}

}  // namespace conform::schema::testing
