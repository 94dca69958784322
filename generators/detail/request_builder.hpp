#pragma once
// Private to generators/: the builder of whole requests for one operation
// (request.cpp: valid and invalid requests; coverage.cpp: the coverage
// cases). A request is first a set of "parts" (wire pairs per parameter, a
// body), assembled into a generated_request at the end.
//
// Declarations only: the parameters' side (parts, x-same-as, wire values) is
// in request_builder.cpp, the body's side (bytes per media type, broken and
// boundary bodies) in request_body.cpp, the invalid body sites in
// request.cpp, the coverage cases in coverage.cpp.

#include <rapidcheck.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "generators/style.hpp"
#include "generators/wire.hpp"
#include "generators/invalid.hpp"
#include "generators/request.hpp"
#include "generators/value.hpp"
#include "openapi/model.hpp"
#include "schema/schema.hpp"

namespace conform::generators::detail {

namespace gen = rc::gen;
using boost::json::value;
using openapi::param_location;
using rc::Gen;

struct body_bytes {
  std::string bytes;
  std::string content_type;
  bool from_example = false;
};

/// A request before assembly: wire pairs per parameter (nullopt: not sent).
struct parts {
  std::vector<std::optional<wire_pairs>> params;
  std::vector<std::pair<std::string, std::string>> fixtures_used;
  std::optional<body_bytes> body;
};

struct param_entry {
  const openapi::parameter* p = nullptr;
  std::size_t index = 0;
  bool required = false;
  std::optional<std::string> fixture;
  Gen<wire_pairs> valid = gen::just(wire_pairs{});
};

struct request_site {
  request_mutation mutation;
  std::string where;
  Gen<generated_request> gen;
};

/// An x-same-as of the body tied to the parameter it must equal.
struct same_as_slot {
  std::string pointer;                   // in the body
  const schema::schema* prop = nullptr;  // the property's schema
  std::size_t param = 0;                 // index into the operation's parameters
  generators::param_format format;       // how that parameter is written
  std::string where;                     // "path contact_id"
};

class request_builder {
 public:
  request_builder(const openapi::operation& op, fixture_lookup fixtures,
                  const request_options& options);

  Gen<parts> valid_parts() const;

  /// Sets each x-same-as property the body carries to its parameter's value
  /// (read through the property's schema), where the body stays valid.
  static void keep_same_as(parts& ps, const std::vector<same_as_slot>& slots,
                           const schema::schema& body);

  /// Leaves out the body properties that mirror parameter `index` (x-same-as)
  /// where the body stays valid: once the parameter is broken, a copy of its
  /// old value would be a second thing wrong.
  void drop_same_as(parts& ps, std::size_t index) const;

  /// The valid parts with the x-same-as property of `slot` set to `other`,
  /// a value that differs from the parameter; nullopt when the body cannot
  /// carry it and stay valid by its schema.
  static std::optional<parts> break_same_as(parts ps, const same_as_slot& slot, const value& other,
                                            const schema::schema& body);

  /// Requests whose x-same-as property of `slot` differs from its parameter.
  Gen<generated_request> same_as_site(const Gen<parts>& valid,
                                      const std::shared_ptr<request_builder>& self,
                                      const same_as_slot& slot) const;

  generated_request assemble(const parts& in, request_mode mode) const;

  /// True when every parameter `in` sends is a fixture or an example of its schema.
  bool documented_params(const parts& in) const;

  std::vector<request_site> invalid_sites() const;

  std::vector<coverage_case> coverage() const;

  static request_mutation mutation_for(param_location in);

  /// How a parameter's values are broken: as text, unless it is a JSON
  /// `content` parameter (whose text is JSON, where a numeric string stays a string).
  static invalid_options param_breaking(const openapi::parameter& p);

  /// Valid parts with parameter `index` replaced by broken wire pairs.
  static Gen<generated_request> param_broken(const Gen<parts>& valid,
                                             const std::shared_ptr<request_builder>& self,
                                             std::size_t index, request_mutation m,
                                             const std::string& where,
                                             Gen<std::pair<wire_pairs, invalid_value>> broken);

 private:
  bool runner_controlled(const openapi::parameter& p) const;

  static const openapi::media_type* pick_media(const openapi::request_body& b);

  bool json_media() const { return media_->name.find("json") != std::string::npos; }
  /// A sequential media type with an `itemSchema` (OpenAPI 3.2): the body
  /// is a sequence of items, each valid by it.
  bool sequential() const { return media_ != nullptr && media_->item_schema != nullptr; }

  Gen<body_bytes> sequence_body() const;
  std::optional<Gen<std::pair<body_bytes, invalid_value>>> broken_items() const;
  bool multipart_media() const { return media_->name == "multipart/form-data"; }
  bool urlencoded_media() const { return media_->name == "application/x-www-form-urlencoded"; }

  /// An object as a urlencoded body; `.second` is false unless the value the
  /// server reads back is `want_valid`.
  static std::pair<body_bytes, bool> urlencoded(const openapi::media_type& m, const value& v,
                                                bool from_example, bool want_valid);

  Gen<wire_pairs> valid_wire(const openapi::parameter& p) const;

  std::optional<Gen<std::pair<wire_pairs, invalid_value>>> invalid_wire(
      const openapi::parameter& p) const;

  /// True when the values of `bad` are written longer than servers take
  /// where `p` travels (two draws say so) and the schema does not force it.
  static bool oversized_site(const openapi::parameter& p, const Gen<invalid_value>& bad);

  /// Invalid values of `p` as wire pairs that still read back as invalid
  /// (and, for a broken type, as a value of `as_type`: the type the case
  /// claims is the one the server reads).
  static Gen<std::pair<wire_pairs, invalid_value>> wired(
      const openapi::parameter& p, Gen<invalid_value> bad,
      std::optional<schema::json_type> as_type = std::nullopt);

  /// Boundary values of `p` as wire pairs that still read back as valid; a
  /// value longer than servers take (unless the schema forces it) is no
  /// case, and its generator says so.
  static Gen<wire_pairs> wired_valid(const openapi::parameter& p, Gen<value> good);

  /// The media type's examples that validate, else the schema's own.
  std::vector<value> body_examples() const;

  Gen<body_bytes> valid_body() const;

  /// Multipart bodies from object values; text/csv parts of generated values
  /// get a small CSV (a header row and 1-3 rows) instead of a random string.
  Gen<body_bytes> multipart(Gen<std::pair<value, bool>> values) const;

  /// The body of `ps` with a fresh boundary; `.second` is false when the
  /// boundary clashes or the value the server reads back is not `want_valid`.
  /// Unless `columns_kept` is false, every column an x-columns-of part
  /// maps is added to its CSV part's header first (detail::keep_columns).
  static std::pair<body_bytes, bool> finish_multipart(const schema::schema& s,
                                                      std::vector<generators::form_part> ps,
                                                      const std::string& boundary,
                                                      bool from_example, bool want_valid,
                                                      bool columns_kept = true);

  /// Valid multipart bodies whose x-columns-of part maps one column its CSV
  /// part's header lacks (detail::break_columns); nullopt when the body has
  /// no x-columns-of.
  std::optional<Gen<body_bytes>> columns_broken_body() const;

  void body_sites(const Gen<parts>& valid, const std::shared_ptr<request_builder>& self,
                  std::vector<request_site>& sites) const;

  /// The coverage cases of the parameters: one per constraint a parameter's
  /// value can break, and one per edge of a valid value (not of a fixture's).
  void parameter_cases(const Gen<parts>& valid, const std::shared_ptr<request_builder>& self,
                       std::vector<coverage_case>& out) const;

  /// The coverage cases of the body (item by item for a sequential one): one
  /// per constraint its value can break, and one per edge of a valid value.
  void body_cases(const Gen<parts>& valid, const std::shared_ptr<request_builder>& self,
                  std::vector<coverage_case>& out) const;

  /// Bodies that break the schema as the server reads them, in the media
  /// type chosen (JSON, multipart or urlencoded); nullopt for others.
  std::optional<Gen<std::pair<body_bytes, invalid_value>>> broken_bodies() const;

  /// Invalid values of the body as the bytes to send, checked invalid as the
  /// server reads them back (JSON, multipart or urlencoded).
  Gen<std::pair<body_bytes, invalid_value>> broken_body(Gen<invalid_value> bad) const;

  /// Valid parts with the body replaced by a broken one.
  Gen<generated_request> body_broken(const Gen<parts>& valid,
                                     const std::shared_ptr<request_builder>& self,
                                     Gen<std::pair<body_bytes, invalid_value>> broken) const;

  /// A valid body on the edge of one constraint, as bytes in the media type
  /// chosen, checked valid as the server reads it back.
  Gen<body_bytes> boundary_body(Gen<value> good) const;

  const openapi::operation& op_;
  fixture_lookup fixtures_;
  request_options options_;
  std::vector<param_entry> entries_;
  const openapi::media_type* media_ = nullptr;
  std::vector<same_as_slot> slots_;  // JSON bodies only
};

}  // namespace conform::generators::detail
