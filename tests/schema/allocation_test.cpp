// The validator's fast path: validating a valid value allocates nothing
// (patterns aside, where std::regex_search allocates its own state). This
// binary replaces global operator new to count allocations per thread.

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <cstdlib>
#include <new>

#include "tests/schema/test_support.hpp"

namespace {
thread_local bool counting = false;
thread_local long allocations = 0;
}  // namespace

// noinline: inlined into a caller, the deletes below would show GCC a free()
// of memory from operator new (-Wmismatched-new-delete at -O1 and above).
[[gnu::noinline]] void* operator new(std::size_t n) {
  if (counting) ++allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace conform::schema {
namespace {

long allocations_of(const schema& s, const boost::json::value& v, validation_result* out) {
  allocations = 0;
  counting = true;
  *out = validate(s, v);
  counting = false;
  return allocations;
}

TEST(validator_allocations, a_valid_value_costs_no_allocation) {
  testing::schemas make;
  const schema& s = make(R"({
    "$defs": {"session": {"type": "object", "required": ["id", "status", "started_at"],
      "properties": {"id": {"type": "string", "minLength": 1},
                     "status": {"enum": ["queued", "ringing", "completed"]},
                     "started_at": {"type": "string", "format": "date-time"},
                     "timezone": {"type": "string", "format": "timezone"},
                     "to_number": {"type": "string", "format": "e164"},
                     "duration_seconds": {"type": "integer", "minimum": 0},
                     "cost": {"type": "number", "multipleOf": 0.01},
                     "ended_at": {"type": ["string", "null"], "format": "date-time"}}}},
    "allOf": [{"type": "object", "required": ["data", "message", "meta", "request_id"],
               "properties": {"data": {"type": ["object", "null"]},
                              "message": {"type": ["string", "null"]},
                              "meta": {"type": ["object", "null"]},
                              "request_id": {"type": ["string", "null"]}}},
              {"properties": {"data": {"type": "object", "required": ["items"],
                "properties": {"items": {"type": "array", "uniqueItems": true,
                                         "items": {"$ref": "#/$defs/session"}}}}}}]})");
  const auto v = boost::json::parse(R"({"data": {"items": [
      {"id": "1", "status": "queued", "started_at": "2026-11-20T10:00:00Z",
       "timezone": "Europe/Paris", "to_number": "+14155550100", "duration_seconds": 12,
       "cost": 0.35, "ended_at": null},
      {"id": "2", "status": "completed", "started_at": "2026-11-20T10:00:00.5+05:30",
       "ended_at": "2026-11-20T10:05:00Z"}]},
    "message": null, "meta": null, "request_id": "abc"})");
  validation_result result;
  EXPECT_EQ(allocations_of(s, v, &result), 0);
  EXPECT_TRUE(result.ok());
}

TEST(validator_allocations, an_invalid_value_allocates_its_errors) {
  testing::schemas make;
  const schema& s = make(R"({"type": "object", "required": ["id"]})");
  validation_result result;
  EXPECT_GT(allocations_of(s, boost::json::parse("{}"), &result), 0);
  EXPECT_EQ(result.errors.size(), 1u);
}

}  // namespace
}  // namespace conform::schema
