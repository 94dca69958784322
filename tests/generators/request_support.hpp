#pragma once
// The generator tests' small API, written as model structs as the loader
// would fill them, and the oracle that reads a generated request back as a
// server would and lists what is wrong with it (request_test.cpp,
// request_coverage_test.cpp).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generators/wire.hpp"
#include "generators/request.hpp"
#include "openapi/model.hpp"
#include "schema/from_json.hpp"

namespace conform::generators::testing {

/// Operations of a small API written as model structs, as the loader would fill them.
class api {
 public:
  api();

  std::vector<const openapi::operation*> all() const {
    return {&cancel, &list, &create, &import, &health, &answer, &memory};
  }

  openapi::operation cancel, list, create, import, health, answer, memory;

 private:
  const schema::schema& make(std::string_view json);
  static openapi::parameter param(std::string name, openapi::param_location in, bool required,
                                  const schema::schema* s);

  schema::schema_arena arena_;
};

/// The fixture of the follow-up ids ("5001"); nullopt for any other parameter.
std::optional<std::string> fixture_of(const openapi::parameter& p);

/// `s` cut at each `sep` (an empty piece where two meet).
std::vector<std::string> split(std::string_view s, char sep);

/// The parts of a multipart body, read back as a server would.
std::vector<generators::form_part> parse_multipart(const std::string& body,
                                                   const std::string& content_type);

/// Everything wrong with `r` as a request for `op`, one line per problem.
std::vector<std::string> problems(const openapi::operation& op, const generated_request& r,
                                  const std::vector<std::string>& runner_headers = {});

/// The request and its problems, for a failing assertion's message.
std::string report(const generated_request& r, const std::vector<std::string>& wrong);

/// The first sample of `c` over a few seeds at small sizes, as the engine
/// draws a coverage case; nullopt when none can be made.
std::optional<generated_request> first_sample(const coverage_case& c, std::uint64_t seed = 7);

}  // namespace conform::generators::testing
