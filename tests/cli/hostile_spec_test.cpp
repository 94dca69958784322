// A fuzz test of the whole command line on hostile descriptions: the shipped
// description damaged at random (bytes, lines) and structurally (deep
// nesting, huge scalars, alias bombs, recursive schemas, bad UTF-8, absurd
// patterns, $refs out of the folder). Whatever the damage, `spec lint` and a
// one-example `run` end in order: 0, 1 or 2, and a refusal (2) of the
// description says file:line:col. A crash, a hang or ASan's report fails it.
//
// Cases are few (RC_PARAMS=max_success=N overrides; default 40) so that the
// ASan build stays within the CI budget.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <boost/json/serialize.hpp>

#include "cli/cli.hpp"
#include "core/parse.hpp"
#include "core/document.hpp"
#include "openapi/loader.hpp"

namespace conform::cli {
namespace {

namespace fs = std::filesystem;

// Before RapidCheck reads its configuration: a bounded number of cases.
const bool bounded = [] { return ::setenv("RC_PARAMS", "max_success=40", 0) == 0; }();

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string& shipped() {
  static const std::string text = read_file(fs::path(CONFORM_SPEC_DIR) / "voice-api.yaml");
  return text;
}

/// The shipped description as JSON (the same document, read by the other reader).
const std::string& shipped_json() {
  static const std::string text =
      boost::json::serialize(core::to_json(core::parse_document(shipped(), "shipped").root));
  return text;
}

/// A folder of this process with the shipped matrix; descriptions go beside it.
const fs::path& workspace() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("conform-hostile-" + std::to_string(::getpid()));
    fs::create_directories(d);
    fs::copy_file(fs::path(CONFORM_SPEC_DIR) / "permissions.yaml", d / "permissions.yaml",
                  fs::copy_options::overwrite_existing);
    return d;
  }();
  return dir;
}

/// `--include` arguments for two operations with a path parameter (read
/// from the shipped description, so that no operation is named here).
const std::vector<std::string>& includes() {
  static const std::vector<std::string> args = [] {
    std::vector<std::string> out;
    const auto r = openapi::load(fs::path(CONFORM_SPEC_DIR) / "voice-api.yaml");
    if (!r.spec) return out;
    for (const auto& op : r.spec->operations) {
      if (op.path.find('{') == std::string::npos || out.size() >= 4) continue;
      out.push_back("--include");
      out.push_back(op.operation_id);
    }
    return out;
  }();
  return args;
}

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

/// A YAML value meant to hurt the reader.
rc::Gen<std::string> hostile_value() {
  using namespace rc;
  return gen::oneOf(
      gen::map(gen::inRange<std::size_t>(40, 5000),
               [](std::size_t n) { return repeat("[", n) + repeat("]", n); }),
      gen::map(gen::inRange<std::size_t>(40, 3000),
               [](std::size_t n) { return repeat("{a: ", n) + "1" + repeat("}", n); }),
      gen::map(gen::inRange<std::size_t>(1000, 60000),
               [](std::size_t n) { return repeat("9", n); }),
      gen::map(gen::inRange<std::size_t>(1000, 60000),
               [](std::size_t n) { return "0." + repeat("0", n) + "1"; }),
      gen::map(gen::inRange<std::size_t>((1u << 20) - 16, (1u << 20) + 64),
               [](std::size_t n) { return "'" + repeat("x", n) + "'"; }),
      gen::map(gen::pair(gen::inRange(2, 12), gen::inRange(2, 12)),
               [](std::pair<int, int> p) {
                 std::string out = "\n  l0: &l0 [lol, lol]";
                 for (int i = 1; i < p.first; ++i) {
                   out += "\n  l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
                   for (int k = 0; k < p.second; ++k) {
                     out += (k == 0 ? "*l" : ", *l") + std::to_string(i - 1);
                   }
                   out += "]";
                 }
                 return out;
               }),
      gen::element<std::string>("&a [*a]", "\"\\xff\\u0000\"", std::string("a\0b", 3), "\xff\xfe",
                                "\xc0\x80", "\xed\xa0\x80", "\"\\", "&x 1\n---\n*x"));
}

/// A regex meant to hurt the engine or the generators, single-quoted for YAML.
rc::Gen<std::string> hostile_pattern() {
  using namespace rc;
  return gen::oneOf(
      gen::map(gen::inRange<std::size_t>(10, 40000),
               [](std::size_t n) { return repeat("(", n) + "a" + repeat(")", n); }),
      gen::map(gen::inRange<std::size_t>(10, 6000),
               [](std::size_t n) { return "^" + repeat("a?", n) + repeat("a", n) + "$"; }),
      gen::element<std::string>("^(a*)*\\1$", "^(a|a)*b$", "^(a+)+$", "(?<=a)b", "[0-9",
                                "^(?:(?:a*)*)*$", "\\", "(a)\\2", "^[^]*$", "^\\u0041+$",
                                "^.{0,65535}$", "(?i)x"));
}

std::string quoted(const std::string& pattern) {
  std::string out = "'";
  for (char c : pattern) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

void replace_first(std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
}

/// The shipped description, damaged one way or a few.
std::string damaged() {
  using namespace rc;
  std::string text = shipped();
  const int kind = *gen::inRange(0, 9);
  switch (kind) {
    case 0: {  // random bytes, lines dropped or doubled
      const int edits = *gen::inRange(1, 4);
      for (int i = 0; i < edits; ++i) {
        const auto at = *gen::inRange<std::size_t>(0, text.size());
        const int how = *gen::inRange(0, 3);
        if (how == 0) {
          text[at] = static_cast<char>(*gen::arbitrary<unsigned char>());
        } else {
          const auto start = text.rfind('\n', at) + 1;
          const auto end = text.find('\n', at);
          const std::string line = text.substr(start, end - start + 1);
          if (how == 1) text.erase(start, line.size());
          if (how == 2) text.insert(start, line);  // often a duplicate key
        }
      }
      break;
    }
    case 1:  // a hostile value beside the root keys
      text += "x-fuzz: " + *hostile_value() + "\n";
      break;
    case 2:  // a hostile value as an example
      replace_first(text, "  schemas:\n",
                    "  schemas:\n    Fuzz:\n      example: " + *hostile_value() + "\n");
      break;
    case 3:  // an absurd pattern where the description has a plain one
      replace_first(text, "'^[0-9]+$'", quoted(*hostile_pattern()));
      break;
    case 4: {  // recursion, with or without a base case
      const std::string cycle = *gen::element<std::string>(
          "    Fuzz: {allOf: [{$ref: '#/components/schemas/Fuzz'}]}\n",
          "    Fuzz: {$ref: '#/components/schemas/Fuzz'}\n",
          "    Fuzz: {type: object, required: [n], properties: {n: {$ref: "
          "'#/components/schemas/Fuzz'}}}\n",
          "    Fuzz: {type: array, minItems: 1, items: {$ref: '#/components/schemas/Fuzz'}}\n",
          "    Fuzz: {anyOf: [{$ref: '#/components/schemas/Fuzz'}, {type: string}]}\n",
          "    Fuzz: {oneOf: [{$ref: '#/components/schemas/Fuzz'}, {type: integer}]}\n");
      replace_first(text, "  schemas:\n", "  schemas:\n" + cycle);
      replace_first(text, "$ref: '#/components/schemas/Id'", "$ref: '#/components/schemas/Fuzz'");
      break;
    }
    case 5:  // $ref to a device, out of the folder, to nothing
      replace_first(text, "$ref: '#/components/schemas/",
                    "$ref: '" +
                        *gen::element<std::string>("/dev/zero#", "../../../../../../etc/passwd#",
                                                   "/proc/self/mem#", "permissions.yaml#", ".#",
                                                   "voice-api.yaml#") +
                        "/components/schemas/");
      break;
    case 6:  // a pattern too costly on an example
      replace_first(text, "  schemas:\n",
                    "  schemas:\n    Fuzz: {type: string, pattern: " + quoted(*hostile_pattern()) +
                        ", example: '" + repeat("a", *gen::inRange<std::size_t>(20, 100000)) +
                        "b'}\n");
      replace_first(text, "$ref: '#/components/schemas/Id'", "$ref: '#/components/schemas/Fuzz'");
      break;
    case 7:  // a second document, or a second root key
      text += *gen::element<std::string>("---\nopenapi: 3.1.0\n", "paths: {}\n", "...\n---\n",
                                         "openapi: 3.0.3\n");
      break;
    default:  // a control character or broken UTF-8 somewhere
      text.insert(*gen::inRange<std::size_t>(0, text.size()),
                  *gen::element<std::string>(std::string(1, '\0'), "\x01", "\xff", "\xc3",
                                             "\xe2\x82", "\xf4\x90\x80\x80", "\x7f"));
      break;
  }
  RC_TAG(kind);
  return text;
}

/// A JSON value meant to hurt the JSON reader.
rc::Gen<std::string> hostile_json_value() {
  using namespace rc;
  return gen::oneOf(
      gen::map(gen::inRange<std::size_t>(40, 200000),
               [](std::size_t n) { return repeat("[", n) + repeat("]", n); }),
      gen::map(gen::inRange<std::size_t>(40, 3000),
               [](std::size_t n) { return repeat("{\"a\":", n) + "1" + repeat("}", n); }),
      gen::map(gen::inRange<std::size_t>(1000, 2000000),
               [](std::size_t n) { return repeat("9", n); }),
      gen::map(gen::inRange<std::size_t>((1u << 20) - 16, (1u << 20) + 64),
               [](std::size_t n) { return "\"" + repeat("x", n) + "\""; }),
      gen::map(gen::inRange<std::size_t>(1000, 200000),
               [](std::size_t n) { return "[" + repeat("0,", n) + "0]"; }),
      gen::element<std::string>("\"\\ud800\"", "\"\\udc00x\"", "\"\\u00\"", "\"\\x\"", "1e99999",
                                "-", "01", "1.", ".5", "tru", "nul", "\"\t\"", "\"a\\u0000b\"",
                                "{\"a\":1,\"a\":2}", "[1,]", "{,}", "\""));
}

/// The shipped description as JSON, damaged one way or a few.
std::string damaged_json() {
  using namespace rc;
  std::string text = shipped_json();
  const int kind = *gen::inRange(0, 5);
  switch (kind) {
    case 0: {  // random bytes
      const int edits = *gen::inRange(1, 4);
      for (int i = 0; i < edits; ++i) {
        const auto at = *gen::inRange<std::size_t>(0, text.size());
        text[at] = static_cast<char>(*gen::arbitrary<unsigned char>());
      }
      break;
    }
    case 1:  // a hostile value beside the root keys
      text.insert(1, "\"x-fuzz\":" + *hostile_json_value() + ",");
      break;
    case 2:  // a duplicate root key, or one inside a mapping
      text.insert(1, *gen::element<std::string>("\"paths\":{},", "\"openapi\":\"3.0.3\","));
      break;
    case 3:  // cut short, or followed by more
      if (*gen::arbitrary<bool>()) {
        text.resize(*gen::inRange<std::size_t>(0, text.size()));
      } else {
        text += *gen::element<std::string>("{}", " x", "\n---\n", ",");
      }
      break;
    default:  // a control character or broken UTF-8 somewhere
      text.insert(*gen::inRange<std::size_t>(0, text.size()),
                  *gen::element<std::string>(std::string(1, '\0'), "\x01", "\xff", "\xc3",
                                             "\xe2\x82", "\xf4\x90\x80\x80", "\x7f"));
      break;
  }
  RC_TAG(kind);
  return text;
}

// The description or the matrix beside it, with a position.
const std::regex positioned(R"([^ :\n]+\.(yaml|json):[0-9]+:[0-9]+: error: )");

/// Lint, then (a few times per process) a one-example run, of `text` as `name`.
void lint_and_run(const std::string& text, const std::string& name) {
  const fs::path file = workspace() / name;
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
  }
  std::ostringstream out, err;
  const int lint = lint_command({file.string()}, out, err);
  RC_ASSERT(lint == 0 || lint == 2);
  if (lint == 2) {
    RC_ASSERT(std::regex_search(err.str(), positioned));
    return;
  }
  // A run costs seconds under ASan: a few per process are enough to show
  // that what lint lets through does not break the generators or checks.
  static int runs = 0;
  if (++runs > 8) return;
  std::vector<std::string> args{"--spec",
                                file.string(),
                                "--examples",
                                "1",
                                "--no-progress",
                                "--seed",
                                std::to_string(*rc::gen::inRange(1, 1000))};
  args.insert(args.end(), includes().begin(), includes().end());
  std::ostringstream run_out, run_err;
  const int run = run_command(args, run_out, run_err);
  RC_ASSERT(run == 0 || run == 1 || run == 2);
}

RC_GTEST_PROP(hostile_spec, lint_and_run_end_in_order, ()) {
  lint_and_run(damaged(), "voice-api.yaml");
}

RC_GTEST_PROP(hostile_spec, json_lint_and_run_end_in_order, ()) {
  lint_and_run(damaged_json(), "voice-api.json");
}

TEST(hostile_spec, the_shipped_description_as_json_loads_as_it_does_as_yaml) {
  const fs::path file = workspace() / "as-json.json";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << shipped_json();
  }
  const auto yaml = openapi::load(fs::path(CONFORM_SPEC_DIR) / "voice-api.yaml");
  const auto json = openapi::load(file, {fs::path(CONFORM_SPEC_DIR) / "permissions.yaml"});
  ASSERT_TRUE(yaml.ok());
  ASSERT_TRUE(json.ok()) << (json.diagnostics.empty() ? "" : core::to_string(json.diagnostics[0]));
  ASSERT_EQ(json.spec->operations.size(), yaml.spec->operations.size());
  for (std::size_t i = 0; i < yaml.spec->operations.size(); ++i) {
    const auto& a = yaml.spec->operations[i];
    const auto& b = json.spec->operations[i];
    EXPECT_EQ(a.operation_id, b.operation_id);
    EXPECT_EQ(a.parameters.size(), b.parameters.size()) << a.operation_id;
    EXPECT_EQ(a.responses.size(), b.responses.size()) << a.operation_id;
  }
  EXPECT_EQ(json.spec->arena->size(), yaml.spec->arena->size());
}

TEST(hostile_spec, includes_two_operations) {
  EXPECT_GE(includes().size(), 4u);
}

}  // namespace
}  // namespace conform::cli
