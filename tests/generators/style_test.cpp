// Parameter styles against the OpenAPI specification's own style table
// (color = "blue", ["blue","black","brown"], {"R":100,"G":200,"B":150}),
// written and read back, and whole requests built with them.

#include "core/text.hpp"
#include "tests/generators/rc_support.hpp"

#include <boost/json/parse.hpp>

#include <map>

#include "generators/style.hpp"
#include "generators/wire.hpp"
#include "generators/request.hpp"
#include "schema/validator.hpp"

namespace conform::generators {
namespace {

using boost::json::parse;
using boost::json::value;
using generators::param_format;
using generators::wire_pairs;
using openapi::param_location;
using openapi::param_style;

struct style_case {
  param_location in;
  param_style style;
  bool explode;
  const char* primitive;
  const char* array;
  const char* object;
};

/// The specification's table. Path texts as written in the path; query and
/// cookie pairs as the query string after percent-encoding; header values as sent.
const style_case table[] = {
    {param_location::path, param_style::matrix, false, ";color=blue", ";color=blue,black,brown",
     ";color=R,100,G,200,B,150"},
    {param_location::path, param_style::matrix, true, ";color=blue",
     ";color=blue;color=black;color=brown", ";R=100;G=200;B=150"},
    {param_location::path, param_style::label, false, ".blue", ".blue,black,brown",
     ".R,100,G,200,B,150"},
    {param_location::path, param_style::label, true, ".blue", ".blue.black.brown",
     ".R=100.G=200.B=150"},
    {param_location::path, param_style::simple, false, "blue", "blue,black,brown",
     "R,100,G,200,B,150"},
    {param_location::path, param_style::simple, true, "blue", "blue,black,brown",
     "R=100,G=200,B=150"},
    {param_location::header, param_style::simple, false, "blue", "blue,black,brown",
     "R,100,G,200,B,150"},
    {param_location::header, param_style::simple, true, "blue", "blue,black,brown",
     "R=100,G=200,B=150"},
    {param_location::query, param_style::form, false, "color=blue", "color=blue,black,brown",
     "color=R,100,G,200,B,150"},
    {param_location::query, param_style::form, true, "color=blue",
     "color=blue&color=black&color=brown", "R=100&G=200&B=150"},
    {param_location::query, param_style::space_delimited, false, "color=blue",
     "color=blue%20black%20brown", "color=R%20100%20G%20200%20B%20150"},
    {param_location::query, param_style::pipe_delimited, false, "color=blue",
     "color=blue%7Cblack%7Cbrown", "color=R%7C100%7CG%7C200%7CB%7C150"},
    {param_location::query, param_style::deep_object, true, nullptr, nullptr,
     "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"},
    {param_location::cookie, param_style::form, false, "color=blue", "color=blue,black,brown",
     "color=R,100,G,200,B,150"},
};

/// Pairs as they travel: one text for path and header, the query string otherwise.
std::string sent(const param_format& f, const wire_pairs& w) {
  if (f.in == param_location::path || f.in == param_location::header) return w.front().second;
  return encode_query(w);
}

class style_table : public ::testing::Test {
 protected:
  testing::schemas make;
  const schema::schema& string_s = make(R"({"type": "string"})");
  const schema::schema& array_s = make(R"({"type": "array", "items": {"type": "string"}})");
  const schema::schema& object_s = make(R"({"type": "object", "properties": {
      "R": {"type": "integer"}, "G": {"type": "integer"}, "B": {"type": "integer"}}})");
};

TEST_F(style_table, every_combination_writes_the_specifications_example_and_reads_it_back) {
  const value primitive = "blue";
  const value array = parse(R"(["blue", "black", "brown"])");
  const value object = parse(R"({"R": 100, "G": 200, "B": 150})");
  for (const auto& c : table) {
    const param_format f{c.in, c.style, c.explode, "color", ""};
    const std::string label = std::string(openapi::to_string(c.in)) + " " +
                              std::string(openapi::to_string(c.style)) +
                              (c.explode ? " explode" : "");
    const std::pair<const char*, std::pair<const value*, const schema::schema*>> rows[] = {
        {c.primitive, {&primitive, &string_s}},
        {c.array, {&array, &array_s}},
        {c.object, {&object, &object_s}}};
    for (const auto& [want, vs] : rows) {
      if (want == nullptr) continue;
      auto w = generators::write_param(f, *vs.first);
      ASSERT_TRUE(w) << label;
      EXPECT_EQ(sent(f, *w), want) << label;
      EXPECT_EQ(generators::read_param(f, *vs.second, *w), *vs.first) << label << " read back";
    }
  }
}

TEST_F(style_table, deep_object_carries_objects_only) {
  const param_format f{param_location::query, param_style::deep_object, true, "color", ""};
  EXPECT_FALSE(generators::write_param(f, value("blue")));
  EXPECT_FALSE(generators::write_param(f, parse(R"(["a"])")));
  auto w = generators::write_param(f, parse(R"({"R": 100})"));
  ASSERT_TRUE(w);
  EXPECT_EQ(*w, (wire_pairs{{"color[R]", "100"}}));
}

TEST_F(style_table, a_content_parameter_is_sent_as_json_text) {
  const param_format f{param_location::query, param_style::form, true, "filter",
                       "application/json"};
  const value v = parse(R"({"name": "a b", "ids": [1, 2]})");
  auto w = generators::write_param(f, v);
  ASSERT_TRUE(w);
  EXPECT_EQ(*w, (wire_pairs{{"filter", R"({"name":"a b","ids":[1,2]})"}}));
  EXPECT_EQ(generators::read_param(f, object_s, *w), v);
}

TEST(style_values, path_values_are_percent_encoded_as_segments) {
  const param_format f{param_location::path, param_style::simple, false, "id", ""};
  auto w = generators::write_param(f, value("a/b?c#d e"));
  ASSERT_TRUE(w);
  EXPECT_EQ(w->front().second, "a%2Fb%3Fc%23d%20e");
  EXPECT_EQ(core::percent_decode(w->front().second), "a/b?c#d e");
}

TEST(style_values, allow_reserved_keeps_reserved_characters_in_the_query) {
  EXPECT_EQ(encode_query({{"p", "a/b:c?d,e=f"}}, {"p"}), "p=a/b:c%3Fd,e%3Df");
  EXPECT_EQ(encode_query({{"p", "a/b:c?d,e"}}), "p=a%2Fb%3Ac%3Fd,e");
  // Characters that would change the query's meaning stay encoded.
  EXPECT_EQ(encode_query({{"p", "a&b+c#d"}}, {"p"}), "p=a%26b%2Bc%23d");
}

TEST(style_values, a_template_with_a_question_mark_builds_one_query) {
  testing::schemas make;
  const auto& s = make(R"({"type": "string", "enum": ["x1"]})");
  openapi::operation op;
  op.path = "/files/{name}?download";
  openapi::parameter p;
  p.name = "name";
  p.in = param_location::path;
  p.required = true;
  p.schema = &s;
  openapi::parameter q;
  q.name = "v";
  q.in = param_location::query;
  q.required = true;
  q.schema = &s;
  op.parameters = {p, q};
  const auto r = valid_request(op, nullptr)(rc::Random(7), 10).value();
  EXPECT_EQ(r.target(), "/files/x1%3Fdownload?v=x1");
}

/// Requests generated for parameters of every style: each valid one reads
/// back valid, as a server following the style would read it.
TEST(style_requests, valid_requests_read_back_valid_in_every_style) {
  testing::schemas make;
  const auto& arr = make(R"({"type": "array", "minItems": 1, "maxItems": 4,
                             "items": {"type": "integer", "minimum": 0}})");
  const auto& obj = make(R"({"type": "object", "required": ["a"], "additionalProperties": false,
                             "properties": {"a": {"type": "integer"},
                                            "b": {"type": "string", "minLength": 1}}})");
  struct spec {
    param_location in;
    param_style style;
    bool explode;
    const schema::schema* s;
  };
  const spec specs[] = {
      {param_location::path, param_style::label, true, &arr},
      {param_location::path, param_style::matrix, false, &obj},
      {param_location::query, param_style::space_delimited, false, &arr},
      {param_location::query, param_style::pipe_delimited, false, &arr},
      {param_location::query, param_style::deep_object, true, &obj},
      {param_location::query, param_style::form, true, &obj},
      {param_location::header, param_style::simple, true, &obj},
      {param_location::cookie, param_style::form, false, &arr},
  };
  for (const auto& sp : specs) {
    openapi::operation op;
    op.path = sp.in == param_location::path ? "/x/{p}" : "/x";
    openapi::parameter p;
    p.name = "p";
    p.in = sp.in;
    p.required = true;
    p.style = sp.style;
    p.explode = sp.explode;
    p.schema = sp.s;
    op.parameters = {p};
    const auto f = generators::format_of(p);
    auto result = testing::run_property([&] {
      const auto r = *valid_request(op, nullptr);
      wire_pairs w;
      switch (sp.in) {
        case param_location::path:
          w = {{"p", r.path.substr(3)}};
          break;
        case param_location::query:
        case param_location::querystring:
          w = r.query;
          break;
        case param_location::header:
          RC_ASSERT(r.headers.size() == 1u);
          w = r.headers;
          break;
        case param_location::cookie:
          w = r.cookies;
          break;
      }
      RC_ASSERT(schema::is_valid(*sp.s, generators::read_param(f, *sp.s, w)));
    });
    testing::expect_success(result);
    // And some invalid one can be made for each (cookies aside).
    if (sp.in != param_location::cookie) {
      EXPECT_TRUE(invalid_request(op, nullptr).has_value());
    }
  }
}

TEST(style_requests, allow_empty_value_sends_an_empty_value_sometimes) {
  testing::schemas make;
  const auto& s = make(R"({"type": "integer"})");
  openapi::operation op;
  op.path = "/x";
  openapi::parameter p;
  p.name = "flag";
  p.in = param_location::query;
  p.required = true;
  p.allow_empty_value = true;
  p.schema = &s;
  op.parameters = {p};
  const auto g = valid_request(op, nullptr);
  bool empty = false, number = false;
  for (int i = 0; i < 200; ++i) {
    const auto r = g(rc::Random(static_cast<std::uint64_t>(i) + 1), 20).value();
    ASSERT_EQ(r.query.size(), 1u);
    (r.query.front().second.empty() ? empty : number) = true;
  }
  EXPECT_TRUE(empty);
  EXPECT_TRUE(number);
}

}  // namespace
}  // namespace conform::generators

namespace conform::generators {
namespace {

/// A query string or urlencoded body as decoded pairs.
wire_pairs split_query(const std::string& text) {
  wire_pairs out;
  std::size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    std::size_t amp = text.find('&', start);
    if (amp == std::string::npos) amp = text.size();
    const std::string item = text.substr(start, amp - start);
    const std::size_t eq = item.find('=');
    out.emplace_back(core::percent_decode(item.substr(0, eq)),
                     eq == std::string::npos ? "" : core::percent_decode(item.substr(eq + 1)));
    start = amp + 1;
  }
  return out;
}

TEST(bodies, multipart_parts_follow_the_encoding_objects_defaults) {
  testing::schemas make;
  const auto& s = make(R"({"type": "object", "properties": {
      "tags": {"type": "array", "items": {"type": "string"}},
      "ids": {"type": "array", "items": {"type": "integer"}},
      "meta": {"type": "object"},
      "n": {"type": "integer"},
      "file": {"type": "string", "format": "binary"},
      "csv": {"type": "string", "contentMediaType": "text/csv"}}})");
  const value v = parse(R"({"tags": ["a", "b"], "ids": [1, 2], "meta": {"k": 1}, "n": 3,
                            "file": "bytes", "csv": "a,b\n"})");
  const auto parts = generators::form_parts(v.get_object(), {{"ids", "application/json"}}, s);
  std::vector<std::string> seen;
  for (const auto& p : parts) {
    seen.push_back(p.name + " " + p.content_type + " " + p.content +
                   (p.filename.empty() ? "" : " " + p.filename));
  }
  EXPECT_EQ(seen,
            (std::vector<std::string>{
                "tags text/plain a", "tags text/plain b", "ids application/json [1,2]",
                "meta application/json {\"k\":1}", "n text/plain 3",
                "file application/octet-stream bytes file.bin", "csv text/csv a,b\n csv.csv"}));
  EXPECT_EQ(generators::from_parts(s, parts), v);
}

TEST(bodies, urlencoded_properties_follow_their_encoding) {
  testing::schemas make;
  const auto& s = make(R"({"type": "object", "properties": {
      "tags": {"type": "array", "items": {"type": "string"}},
      "ids": {"type": "array", "items": {"type": "integer"}},
      "filter": {"type": "object", "properties": {"R": {"type": "integer"}}},
      "meta": {"type": "object"},
      "path": {"type": "string"}}})");
  std::map<std::string, openapi::property_encoding> enc;
  enc["ids"].style = param_style::pipe_delimited;
  enc["ids"].explode = false;
  enc["filter"].style = param_style::deep_object;
  enc["path"].allow_reserved = true;
  const value v = parse(R"({"tags": ["a", "b"], "ids": [1, 2], "filter": {"R": 100},
                            "meta": {"k": 1}, "path": "/a/b"})");
  const auto w = generators::form_body(v.get_object(), s, enc);
  EXPECT_EQ(w, (wire_pairs{{"tags", "a"},
                           {"tags", "b"},
                           {"ids", "1|2"},
                           {"filter[R]", "100"},
                           {"meta", R"({"k":1})"},
                           {"path", "/a/b"}}));
  EXPECT_EQ(generators::read_form_body(s, w, enc), v);
}

TEST(bodies, urlencoded_requests_are_valid_as_read_and_one_can_be_broken) {
  testing::schemas make;
  const auto& s = make(R"({"type": "object", "required": ["n", "tags"],
      "additionalProperties": false, "properties": {
      "n": {"type": "integer", "minimum": 1},
      "tags": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}}}})");
  openapi::operation op;
  op.method = http::verb::post;
  op.path = "/forms";
  openapi::request_body body;
  body.required = true;
  openapi::media_type m;
  m.name = "application/x-www-form-urlencoded";
  m.schema = &s;
  m.encoding["tags"].explode = false;
  body.content = {m};
  op.body = body;
  const auto& media = op.body->content.front();
  auto result = testing::run_property([&] {
    const auto r = *valid_request(op, nullptr);
    RC_ASSERT(r.content_type == "application/x-www-form-urlencoded");
    wire_pairs w;
    for (const auto& kv : split_query(r.body)) w.push_back(kv);
    RC_ASSERT(schema::is_valid(s, generators::read_form_body(s, w, media.encoding)));
  });
  testing::expect_success(result);
  const auto mutations = request_mutations(op, nullptr);
  EXPECT_NE(std::find(mutations.begin(), mutations.end(), "invalid_body body"), mutations.end());
}

}  // namespace
}  // namespace conform::generators
