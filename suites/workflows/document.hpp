#pragma once
// Arazzo 1.0 workflow documents, the subset Conform runs: workflows with
// inputs (profile fixture names), steps bound to operations of the loaded
// description by operationId, parameters, request bodies, successCriteria and
// outputs. Loading checks meaning against the description (operations,
// parameters, bodies, expressions and what they refer to), so a document that
// could not run is refused with file:line:col before anything is sent.

#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "openapi/model.hpp"
#include "suites/workflows/expression.hpp"

namespace conform::suites::workflows {

/// A value of the document: JSON whose strings may be, or embed, runtime expressions.
using template_value = boost::json::value;

struct parameter_use {
  std::string name;
  openapi::param_location in = openapi::param_location::query;
  template_value value;
  core::source_pos pos;
};

struct body_use {
  const openapi::media_type* media = nullptr;  // the operation's media type it is sent as
  template_value payload;
  core::source_pos pos;
};

struct criterion_use {
  criterion what;
  core::source_pos pos;
};

struct output_use {
  std::string name;
  expression value;
};

struct step {
  std::string id;
  const openapi::operation* op = nullptr;
  std::vector<parameter_use> parameters;
  std::optional<body_use> body;
  std::vector<criterion_use> criteria;
  std::vector<output_use> outputs;
  /// x-conform-precondition: true: the step checks that the target is in
  /// the state the workflow needs (a fixture an earlier run consumed is
  /// not); when its criteria fail the workflow is "not run", not failed.
  bool precondition = false;
  core::source_pos pos;
};

/// An input: a profile fixture of the tenant the workflow runs as, typed by
/// the inputs schema ("string", "integer", "number", "boolean").
struct input_def {
  std::string name;
  std::string type = "string";
  core::source_pos pos;
};

struct workflow {
  std::string id;
  std::string summary;
  std::vector<input_def> inputs;
  std::vector<step> steps;
  core::source_pos pos;
  /// "file:line:col: what" for each reason the workflow cannot run.
  std::vector<std::string> errors;
};

struct document {
  std::string file;
  std::vector<workflow> workflows;
  /// "file:line:col: what" when the document as a whole cannot be read.
  std::vector<std::string> errors;
};

/// Loads `text`, named `file` in diagnostics, against `spec`.
document load_document(std::string_view text, const std::string& file,
                       const openapi::api_spec& spec);

/// The `url` of every sourceDescriptions entry of the Arazzo file at `path`
/// (empty when it cannot be read or names none).
std::vector<std::string> source_urls(const std::string& path);

/// Reads and loads the file at `path`.
document load_file(const std::string& path, const openapi::api_spec& spec);

/// `t` with its expressions evaluated: a string that is one expression takes
/// its value, one that embeds `{$...}` takes their text; or why it cannot.
core::outcome<boost::json::value> instantiate(const template_value& t, const scope& s);

}  // namespace conform::suites::workflows
