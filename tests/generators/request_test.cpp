// Whole requests from hand-built operations: valid requests are valid in
// every part as a server reads them; invalid ones have exactly one part wrong,
// the one their mode names.

#include "tests/generators/rc_support.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <thread>

#include "core/text.hpp"
#include "generators/detail/wire.hpp"
#include "generators/request.hpp"
#include "schema/validator.hpp"

namespace conform::generators {
namespace {

using boost::json::value;
using openapi::param_location;

/// Operations of a small API written as model structs, as the loader would fill them.
class api {
 public:
  api() {
    const auto& id = make(R"({"type": "string", "pattern": "^[0-9]+$"})");
    const auto& tenant = make(R"({"type": "string", "pattern": "^[0-9]+$"})");
    const auto& idem = make(R"({"type": "string", "minLength": 1, "maxLength": 255,
                                "pattern": "^[!-~]+$"})");

    cancel.operation_id = "cancelFollowUp";
    cancel.method = http::verb::delete_;
    cancel.path = "/follow-ups/{id}";
    cancel.parameters = {param("id", param_location::path, true, &id),
                         param("reason", param_location::query, false,
                               &make(R"({"type": "string", "minLength": 1, "maxLength": 20})")),
                         param("X-Tenant-Id", param_location::header, false, &tenant)};
    cancel.parameters[0].resource =
        openapi::resource_ref{"follow_up", "follow_up_id", "FOLLOW_UP_NOT_FOUND"};

    list.operation_id = "listCampaigns";
    list.path = "/bulk_call_campaigns";
    list.parameters = {
        param("page", param_location::query, false, &make(R"({"type": "integer", "minimum": 1})")),
        param("per_page", param_location::query, false,
              &make(R"({"type": "integer", "minimum": 1, "maximum": 100})")),
        param("status", param_location::query, false,
              &make(R"({"type": "string", "enum": ["draft", "running", "paused"]})")),
        param("ids", param_location::query, true,
              &make(R"({"type": "array", "minItems": 1, "maxItems": 3,
                        "items": {"type": "integer", "minimum": 1}})")),
        param("X-Tenant-Id", param_location::header, true, &tenant)};

    create.operation_id = "createCampaign";
    create.method = http::verb::post;
    create.path = "/bulk_call_campaigns";
    create.parameters = {param("Idempotency-Key", param_location::header, false, &idem)};
    create.body = openapi::request_body{};
    create.body->required = true;
    create.body->content.push_back(openapi::media_type{"application/json",
                                                       &make(R"({
      "type": "object", "required": ["name", "agent_id", "timezone"],
      "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 200},
                     "agent_id": {"type": "integer", "minimum": 1, "x-fixture": "agent_id"},
                     "timezone": {"type": "string", "format": "timezone"},
                     "campaign_phone_number_ids": {"type": "array", "uniqueItems": true,
                       "maxItems": 50, "items": {"type": "integer", "minimum": 1}}}})"),
                                                       {}});

    import.operation_id = "importContacts";
    import.method = http::verb::post;
    import.path = "/contacts/import";
    import.body = openapi::request_body{};
    import.body->required = true;
    import.body->content.push_back(openapi::media_type{"multipart/form-data",
                                                       &make(R"({
      "type": "object", "required": ["file", "column_mapping"],
      "examples": [{"file": "Phone,Given name\n+14155550100,Ada\n",
                    "column_mapping": {"Phone": "phone_e164", "Given name": "first_name"}}],
      "properties": {"file": {"type": "string"},
                     "column_mapping": {"type": "object", "minProperties": 1,
                       "additionalProperties": {"type": "string",
                         "enum": ["phone_e164", "first_name", "last_name", "email"]}},
                     "bulk_call_campaign_id": {"type": "string", "pattern": "^[0-9]+$"}}})"),
                                                       { {"file", "text/csv"},
                                                         {"column_mapping", "application/json"},
                                                         { "bulk_call_campaign_id",
                                                           "text/plain" } }});

    health.operation_id = "health";
    health.path = "/health";

    answer.operation_id = "telephonyAnswer";
    answer.path = "/telephony/{provider}/answer";
    answer.parameters = {
        param("provider", param_location::path, true, &make(R"({"type": "string"})")),
        param("call_id", param_location::query, true,
              &make(R"({"type": "string", "minLength": 1, "maxLength": 128})"))};

    memory.operation_id = "updateContactMemory";
    memory.method = http::verb::patch;
    memory.path = "/contacts/{contact_id}/memory";
    memory.parameters = {param("contact_id", param_location::path, true, &id)};
    memory.body = openapi::request_body{};
    memory.body->required = true;
    memory.body->content.push_back(openapi::media_type{"application/json",
                                                       &make(R"({
      "type": "object", "required": ["agent_id"], "additionalProperties": false,
      "properties": {"agent_id": {"type": "string", "pattern": "^[0-9]+$"},
                     "memory": {"type": "string", "maxLength": 30},
                     "contact_id": {"type": "string", "pattern": "^[0-9]+$",
                                    "x-same-as": {"in": "path", "name": "contact_id"}}}})"),
                                                       {}});
  }

  std::vector<const openapi::operation*> all() const {
    return {&cancel, &list, &create, &import, &health, &answer, &memory};
  }

  openapi::operation cancel, list, create, import, health, answer, memory;

 private:
  const schema::schema& make(std::string_view json) {
    return schema::schema_from_json(arena_, boost::json::parse(json));
  }
  static openapi::parameter param(std::string name, param_location in, bool required,
                                  const schema::schema* s) {
    openapi::parameter p;
    p.name = std::move(name);
    p.in = in;
    p.required = required;
    p.schema = s;
    return p;
  }
  schema::schema_arena arena_;
};

std::optional<std::string> fixture_of(const openapi::parameter& p) {
  if (p.resource && p.resource->fixture == "follow_up_id") return "5001";
  return std::nullopt;
}

std::string percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

/// The parts of a multipart body, read back as a server would.
std::vector<detail::form_part> parse_multipart(const std::string& body,
                                               const std::string& content_type) {
  const std::string marker = "boundary=";
  const std::string boundary =
      "--" + content_type.substr(content_type.find(marker) + marker.size());
  std::vector<detail::form_part> parts;
  std::size_t at = body.find(boundary);
  while (at != std::string::npos) {
    at += boundary.size();
    if (body.compare(at, 2, "--") == 0) break;
    const std::size_t head_end = body.find("\r\n\r\n", at);
    const std::size_t next = body.find(boundary, head_end);
    if (head_end == std::string::npos || next == std::string::npos) break;
    const std::string head = body.substr(at, head_end - at);
    detail::form_part p;
    const std::size_t name_at = head.find("name=\"") + 6;
    p.name = head.substr(name_at, head.find('"', name_at) - name_at);
    if (const auto ct = head.find("Content-Type: "); ct != std::string::npos) {
      p.content_type = head.substr(ct + 14, head.find("\r\n", ct) - ct - 14);
    }
    p.content = body.substr(head_end + 4, next - head_end - 4 - 2);
    parts.push_back(std::move(p));
    at = next;
  }
  return parts;
}

/// Everything wrong with `r` as a request for `op`, one line per problem.
std::vector<std::string> problems(const openapi::operation& op, const generated_request& r,
                                  const std::vector<std::string>& runner_headers = {}) {
  std::vector<std::string> out;
  const auto tmpl = split(op.path, '/');
  const auto path = split(r.path, '/');
  if (tmpl.size() != path.size()) return {"path shape " + r.path};
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i].empty() || tmpl[i].front() != '{') {
      if (tmpl[i] != path[i]) out.push_back("path shape " + r.path);
      continue;
    }
    const std::string name = tmpl[i].substr(1, tmpl[i].size() - 2);
    const openapi::parameter* p = nullptr;
    for (const auto& q : op.parameters) {
      if (q.name == name && q.in == param_location::path) p = &q;
    }
    if (p == nullptr) return {"no path parameter " + name};
    const std::string text = percent_decode(path[i]);
    if (text.empty()) out.push_back("empty path " + name);
    if (p->schema && !schema::is_valid(*p->schema, detail::from_wire(*p->schema, {text}))) {
      out.push_back("invalid path " + name);
    }
  }
  for (const auto& p : op.parameters) {
    if (p.in == param_location::path) continue;
    std::vector<std::string> texts;
    if (p.in == param_location::query) {
      for (const auto& [n, v] : r.query) {
        if (n == p.name) texts.push_back(v);
      }
    } else {
      if (std::any_of(runner_headers.begin(), runner_headers.end(),
                      [&](const std::string& h) { return core::iequals(h, p.name); })) {
        continue;
      }
      for (const auto& [n, v] : r.headers) {
        if (!core::iequals(n, p.name)) continue;
        const auto& rs = p.schema->resolved();
        const bool list = !rs.types.any() && rs.types.has(schema::json_type::array);
        texts = list ? split(v, ',') : std::vector<std::string>{v};
      }
    }
    const std::string where = (p.in == param_location::query ? "query " : "header ") + p.name;
    if (texts.empty()) {
      if (p.required) out.push_back("missing " + where);
      continue;
    }
    if (!schema::is_valid(*p.schema, detail::from_wire(*p.schema, texts)))
      out.push_back("invalid " + where);
  }
  if (op.body) {
    const auto& media = op.body->content.front();
    if (r.body.empty() && r.content_type.empty()) {
      if (op.body->required) out.push_back("missing body");
    } else if (r.content_type.rfind(media.name, 0) != 0) {
      out.push_back("wrong content type " + r.content_type);
    } else if (media.name == "application/json") {
      boost::system::error_code ec;
      const value v = boost::json::parse(r.body, ec);
      if (ec) {
        out.push_back("malformed body");
      } else if (!schema::is_valid(*media.schema, v)) {
        out.push_back("invalid body");
      } else {
        // x-same-as: a body property present must equal its parameter.
        for (const auto& b : openapi::same_as_bindings(*media.schema)) {
          const value* at = &v;
          for (const auto& token : split(b.pointer.substr(1), '/')) {
            const auto* o = at->if_object();
            at = o ? o->if_contains(token) : nullptr;
            if (at == nullptr) break;
          }
          if (at == nullptr || b.same_as.in != "path") continue;
          const auto segment = std::find(tmpl.begin(), tmpl.end(), "{" + b.same_as.name + "}");
          if (segment == tmpl.end()) continue;
          const std::string text = percent_decode(path[segment - tmpl.begin()]);
          if (!schema::json_equal(*at, detail::from_wire(*b.node, {text}))) {
            out.push_back("same_as body " + b.pointer);
          }
        }
      }
    } else {
      const auto parts = parse_multipart(r.body, r.content_type);
      if (!schema::is_valid(*media.schema, detail::from_parts(*media.schema, parts))) {
        out.push_back("invalid body");
      }
    }
  } else if (!r.body.empty()) {
    out.push_back("a body where the operation takes none");
  }
  return out;
}

/// The request and its problems, for a failing assertion's message.
std::string report(const generated_request& r, const std::vector<std::string>& wrong) {
  std::string out = r.target() + " [" + r.content_type + "] " + r.body.substr(0, 300) +
                    " mode=" + std::string(to_string(r.mode.mutation)) + " " + r.mode.description +
                    " ->";
  for (const auto& w : wrong) out += " {" + w + "}";
  for (const auto& [n, v] : r.headers) out += " H:" + n + "=" + v;
  return out;
}

TEST(Request, ValidRequestsAreValidInEveryPart) {
  const api a;
  for (const openapi::operation* op : a.all()) {
    SCOPED_TRACE(op->operation_id);
    const auto g = valid_request(*op, fixture_of);
    testing::expect_success(testing::run_property([&] {
      const generated_request r = *g;
      RC_ASSERT(r.mode.valid());
      RC_ASSERT(r.op == op);
      RC_ASSERT(r.method == op->method);
      const auto wrong = problems(*op, r);
      RC_ASSERT((wrong.empty() ? std::string() : report(r, wrong)) == std::string());
    }));
  }
}

TEST(Request, InvalidRequestsHaveExactlyTheNamedPartWrong) {
  const api a;
  for (const openapi::operation* op : a.all()) {
    SCOPED_TRACE(op->operation_id);
    const auto g = invalid_request(*op, fixture_of);
    if (!g) continue;
    testing::expect_success(testing::run_property([&] {
      const generated_request r = **g;
      RC_ASSERT(!r.mode.valid());
      const auto wrong = problems(*op, r);
      RC_ASSERT((wrong.size() == 1u ? std::string() : report(r, wrong)) == std::string());
      const std::string& what = wrong.front();
      switch (r.mode.mutation) {
        case request_mutation::invalid_path_param:
          RC_ASSERT(what == "invalid " + r.mode.where);
          break;
        case request_mutation::invalid_query_param:
        case request_mutation::invalid_header_param:
        case request_mutation::invalid_cookie_param:
          RC_ASSERT(what == "invalid " + r.mode.where);
          break;
        case request_mutation::missing_param:
          RC_ASSERT(what == "missing " + r.mode.where);
          break;
        case request_mutation::invalid_body:
          RC_ASSERT(what == "invalid body");
          break;
        case request_mutation::missing_body:
          RC_ASSERT(what == "missing body");
          break;
        case request_mutation::malformed_body:
          RC_ASSERT(what == "malformed body");
          break;
        case request_mutation::wrong_content_type:
          RC_ASSERT(what == "wrong content type text/plain");
          break;
        case request_mutation::same_as_mismatch:
          RC_ASSERT(what == "same_as " + r.mode.where);
          break;
        case request_mutation::none:
          RC_FAIL("an invalid request in valid mode");
      }
    }));
  }
}

TEST(Request, ThePropertyCatchesARequestCheckedAgainstAStricterOperation) {
  api a;
  const auto g = valid_request(a.list, fixture_of);
  openapi::operation stricter = a.list;
  stricter.parameters[0].required = true;  // page: sent only half of the time
  const auto result = testing::run_property([&] {
    const generated_request r = *g;
    RC_ASSERT(problems(stricter, r).empty());
  });
  EXPECT_TRUE(result.is<rc::detail::FailureResult>());
}

TEST(Request, PathIdsComeFromFixtures) {
  const api a;
  const auto g = valid_request(a.cancel, fixture_of);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const generated_request r = g(rc::Random(seed), 50).value();
    EXPECT_EQ(r.path, "/follow-ups/5001");
    ASSERT_EQ(r.fixtures_used.size(), 1u);
    EXPECT_EQ(r.fixtures_used[0], std::make_pair(std::string("id"), std::string("5001")));
  }
}

TEST(Request, PathValuesArePercentEncodedAndNeverEmpty) {
  const api a;
  const auto g = valid_request(a.answer, nullptr);
  bool encoded = false;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    const generated_request r = g(rc::Random(seed), 100).value();
    const std::string provider = split(r.path, '/')[2];
    EXPECT_FALSE(provider.empty());
    EXPECT_EQ(provider.find('/'), std::string::npos);
    EXPECT_EQ(provider.find(' '), std::string::npos);
    encoded = encoded || provider.find('%') != std::string::npos;
  }
  EXPECT_TRUE(encoded);
}

TEST(Request, RunnerHeadersAreLeftToTheRunner) {
  const api a;
  request_options options;
  options.runner_headers = {"x-tenant-id"};
  const auto g = valid_request(a.list, fixture_of, options);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const generated_request r = g(rc::Random(seed), 50).value();
    EXPECT_TRUE(r.headers.empty());
  }
  const auto kinds = request_mutations(a.list, fixture_of, options);
  EXPECT_TRUE(std::none_of(kinds.begin(), kinds.end(), [](const std::string& k) {
    return k.find("X-Tenant-Id") != std::string::npos;
  }));
  const auto with = request_mutations(a.list, fixture_of);
  EXPECT_NE(std::find(with.begin(), with.end(), "missing_param header X-Tenant-Id"), with.end());
}

TEST(Request, MutationsListWhatCanBeBroken) {
  const api a;
  const auto create = request_mutations(a.create, fixture_of);
  for (const char* expected :
       {"invalid_header_param header Idempotency-Key", "invalid_body body", "malformed_body body",
        "missing_body body", "wrong_content_type body"}) {
    EXPECT_NE(std::find(create.begin(), create.end(), expected), create.end()) << expected;
  }
  const auto list = request_mutations(a.list, fixture_of);
  for (const char* expected :
       {"invalid_query_param query page", "invalid_query_param query per_page",
        "invalid_query_param query status", "invalid_query_param query ids",
        "missing_param query ids"}) {
    EXPECT_NE(std::find(list.begin(), list.end(), expected), list.end()) << expected;
  }
  // The fixture-filled id is still broken on purpose (its schema constrains it);
  // an unconstrained path string is not.
  const auto cancel = request_mutations(a.cancel, fixture_of);
  EXPECT_NE(std::find(cancel.begin(), cancel.end(), "invalid_path_param path id"), cancel.end());
  const auto answer = request_mutations(a.answer, fixture_of);
  EXPECT_EQ(std::find(answer.begin(), answer.end(), "invalid_path_param path provider"),
            answer.end());
  EXPECT_FALSE(invalid_request(a.health, fixture_of).has_value());
}

TEST(Request, MultipartBodiesUseEncodingAndExamples) {
  const api a;
  const auto g = valid_request(a.import, fixture_of);
  int examples = 0, generated = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const generated_request r = g(rc::Random(seed), 50).value();
    ASSERT_EQ(r.content_type.rfind("multipart/form-data; boundary=conform-", 0), 0u);
    const auto parts = parse_multipart(r.body, r.content_type);
    std::map<std::string, detail::form_part> by_name;
    for (const auto& p : parts) by_name[p.name] = p;
    ASSERT_TRUE(by_name.count("file"));
    ASSERT_TRUE(by_name.count("column_mapping"));
    EXPECT_EQ(by_name["file"].content_type, "text/csv");
    EXPECT_NE(r.body.find("filename=\"file.csv\""), std::string::npos);
    EXPECT_EQ(by_name["column_mapping"].content_type, "application/json");
    EXPECT_NE(by_name["file"].content.find('\n'), std::string::npos);  // a header row at least
    (r.body_from_example ? examples : generated)++;
  }
  EXPECT_GT(examples, 0);
  EXPECT_GT(generated, 0);
}

TEST(Request, BodyFixturesComeFromTheValueOptions) {
  const api a;
  request_options options;
  options.values.fixture = [](std::string_view name) -> std::optional<std::string> {
    return name == "agent_id" ? std::optional<std::string>("11") : std::nullopt;
  };
  const auto g = valid_request(a.create, fixture_of, options);
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    const auto r = g(rc::Random(seed), 50).value();
    EXPECT_EQ(boost::json::parse(r.body).at("agent_id"), value(11));
  }
}

TEST(Request, GenerationFromSeveralThreadsMatchesOneThread) {
  const api a;
  const auto valid = valid_request(a.import, fixture_of);
  const auto invalid = invalid_request(a.create, fixture_of);
  ASSERT_TRUE(invalid.has_value());
  auto render = [&](std::uint64_t seed) {
    const auto v = valid(rc::Random(seed), 50).value();
    const auto i = (*invalid)(rc::Random(seed), 50).value();
    return v.target() + v.body + "|" + i.target() + i.body + i.mode.description;
  };
  constexpr std::uint64_t n = 40;
  std::vector<std::string> expected;
  for (std::uint64_t seed = 0; seed < n; ++seed) expected.push_back(render(seed));
  std::vector<std::vector<std::string>> got(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < got.size(); ++t) {
    threads.emplace_back([&, t] {
      for (std::uint64_t seed = 0; seed < n; ++seed) got[t].push_back(render(seed));
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& g : got) EXPECT_EQ(g, expected);
}

/// The first sample of `c` over a few seeds at small sizes, as the engine
/// draws a coverage case; nullopt when none can be made.
std::optional<generated_request> first_sample(const coverage_case& c, std::uint64_t seed = 7) {
  for (int attempt = 0; attempt < 4; ++attempt) {
    try {
      return c.gen(rc::Random(seed + static_cast<std::uint64_t>(attempt)), attempt * 10).value();
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

TEST(Coverage, EachCaseBreaksExactlyItsConstraintOrNothing) {
  const api a;
  for (const openapi::operation* op : a.all()) {
    SCOPED_TRACE(op->operation_id);
    const auto cases = coverage_cases(*op, fixture_of);
    ASSERT_FALSE(cases.empty());
    EXPECT_EQ(cases.front().constraint, "valid");
    std::set<std::string> names;
    for (const auto& c : cases) {
      SCOPED_TRACE(c.constraint);
      EXPECT_TRUE(names.insert(c.constraint).second) << "constraint named twice";
      const auto r = first_sample(c);
      ASSERT_TRUE(r.has_value()) << "no request could be made";
      const auto wrong = problems(*op, *r);
      if (c.kind == request_kind::valid) {
        EXPECT_TRUE(r->mode.valid());
        EXPECT_EQ(wrong, std::vector<std::string>{});
      } else {
        EXPECT_FALSE(r->mode.valid());
        ASSERT_EQ(wrong.size(), 1u) << report(*r, wrong);
        // The case's name starts with what its request breaks.
        EXPECT_EQ(c.constraint.rfind(r->mode.key(), 0), 0u) << r->mode.key();
      }
    }
  }
}

TEST(Coverage, EveryConstraintOfAParameterIsBrokenOnceAndItsBoundsSent) {
  const api a;
  std::set<std::string> names;
  for (const auto& c : coverage_cases(a.list, fixture_of)) names.insert(c.constraint);
  for (const char* expected : {
           "invalid_query_param query per_page /: a value of type string where integer is "
           "expected",
           "invalid_query_param query per_page /: a number below the minimum 1",
           "invalid_query_param query per_page /: a number above the maximum 100",
           "invalid_query_param query status /: a value outside the enum (\"DRAFT\" first)",
           "invalid_query_param query ids /: 4 items, above maxItems 3",
           "invalid_query_param query ids /0: a number below the minimum 1",
           "missing_param query ids",
           "boundary query per_page /: the minimum 1",
           "boundary query per_page /: the maximum 100",
           "boundary query ids /: exactly maxItems 3",
       }) {
    EXPECT_TRUE(names.count(expected)) << expected;
  }
  // An empty array cannot travel in a query (it is the parameter left out,
  // its own case): not a case that could never be sent.
  EXPECT_FALSE(names.count("invalid_query_param query ids /: 0 items, below minItems 1"));
  // The fixture's path id keeps its one valid value: no boundary of it.
  for (const auto& c : coverage_cases(a.cancel, fixture_of)) {
    EXPECT_EQ(c.constraint.find("boundary path id"), std::string::npos) << c.constraint;
  }
}

TEST(Coverage, BodyConstraintsAndBoundariesAreCoveredOneByOne) {
  const api a;
  std::map<std::string, generated_request> by_name;
  for (const auto& c : coverage_cases(a.create, fixture_of)) {
    if (auto r = first_sample(c)) by_name.emplace(c.constraint, *r);
  }
  const auto& longest = by_name.at("boundary body /name: a string of exactly maxLength 200");
  const value body = boost::json::parse(longest.body);
  EXPECT_EQ(schema::code_points(body.at("name").as_string()), 200u);
  EXPECT_TRUE(
      by_name.count("invalid_body body /campaign_phone_number_ids: an array with a "
                    "duplicated item"));
  EXPECT_TRUE(by_name.count("invalid_body body /: the required property \"timezone\" left out"));
  EXPECT_TRUE(by_name.count("boundary body /campaign_phone_number_ids: an empty array"));
  EXPECT_TRUE(by_name.count("malformed_body body"));
  EXPECT_TRUE(by_name.count("missing_body body"));
  EXPECT_TRUE(by_name.count("wrong_content_type body"));
}

TEST(Coverage, CasesAreDeterministic) {
  const api a;
  const auto one = coverage_cases(a.create, fixture_of);
  const auto two = coverage_cases(a.create, fixture_of);
  ASSERT_EQ(one.size(), two.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].constraint, two[i].constraint);
    const auto x = first_sample(one[i]), y = first_sample(two[i]);
    ASSERT_EQ(x.has_value(), y.has_value());
    if (x) {
      EXPECT_EQ(x->target(), y->target());
      EXPECT_EQ(x->body, y->body);
    }
  }
}

TEST(SameAs, ValidRequestsKeepTheBodyIdEqualToThePath) {
  const api a;
  const auto g = valid_request(a.memory, fixture_of);
  int carried = 0;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const auto r = g(rc::Random(seed), 30).value();
    const value body = boost::json::parse(r.body);
    if (const auto* id = body.as_object().if_contains("contact_id")) {
      ++carried;
      EXPECT_EQ(*id,
                value(r.path.substr(std::string("/contacts/").size(), r.path.find("/memory") - 10)))
          << r.path << " " << r.body;
    }
  }
  EXPECT_GT(carried, 0);
}

TEST(SameAs, TheMismatchIsASiteOfItsOwnAndTheOnlyThingWrong) {
  const api a;
  // A case of the coverage phase, not a random site (request_mutations).
  const auto sites = request_mutations(a.memory, fixture_of);
  EXPECT_EQ(std::find(sites.begin(), sites.end(), "same_as_mismatch body /contact_id"),
            sites.end());
  bool found = false;
  for (const auto& c : coverage_cases(a.memory, fixture_of)) {
    if (c.constraint.rfind("same_as_mismatch", 0) != 0) continue;
    found = true;
    const auto r = first_sample(c);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(problems(a.memory, *r), std::vector<std::string>{"same_as body /contact_id"});
  }
  EXPECT_TRUE(found);
}

TEST(Request, QueryEncoding) {
  EXPECT_EQ(encode_query({{"a", "1"}, {"b c", "x y&z=/é"}}), "a=1&b%20c=x%20y%26z%3D%2F%C3%A9");
  generated_request r;
  r.path = "/x";
  EXPECT_EQ(r.target(), "/x");
  r.query = {{"page", "2"}};
  EXPECT_EQ(r.target(), "/x?page=2");
  EXPECT_EQ(to_string(request_mutation::wrong_content_type), "wrong_content_type");
}

}  // namespace
}  // namespace conform::generators
