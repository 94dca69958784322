// Requests: a generator of valid "parts" (a wire value per parameter, a
// body), then one site per way of breaking them; each broken part is checked
// as the server will read it (wire text coerced back by the schema). The
// builder is in detail/request_builder.hpp, the coverage cases in coverage.cpp.

#include "generators/request.hpp"

#include "generators/detail/choice.hpp"
#include "generators/detail/filter.hpp"
#include "generators/detail/memo.hpp"
#include "generators/detail/request_builder.hpp"

namespace conform::generators {

namespace detail {

void request_builder::body_sites(const Gen<parts>& valid,
                                 const std::shared_ptr<request_builder>& self,
                                 std::vector<request_site>& sites) const {
  const std::string media = media_->name;
  const schema::schema* s = media_->schema;
  auto with_body = [self](request_mutation m, std::string where, std::string what,
                          std::optional<mutation_kind> kind) {
    return [self, m, where = std::move(where), what = std::move(what),
            kind](std::tuple<parts, body_bytes> t) {
      parts ps = std::move(std::get<0>(t));
      ps.body = std::move(std::get<1>(t));
      return self->assemble(ps, request_mode{m, where, what, kind});
    };
  };
  if (auto broken = broken_bodies()) {
    sites.push_back({request_mutation::invalid_body, "body", body_broken(valid, self, *broken)});
  }
  if (s != nullptr && json_media() && !sequential()) {
    auto bytes = gen::map(malformed_json(*s, options_.values), [media](const invalid_value& iv) {
      return body_bytes{iv.raw, media, false};
    });
    sites.push_back({request_mutation::malformed_body, "body",
                     gen::map(gen::tuple(valid, bytes), with_body(request_mutation::malformed_body,
                                                                  "body", "a body that is not JSON",
                                                                  mutation_kind::malformed_json))});
  }
  if (op_.body->required) {
    sites.push_back({request_mutation::missing_body, "body", gen::map(valid, [self](parts ps) {
                       ps.body.reset();
                       return self->assemble(
                           ps, request_mode{request_mutation::missing_body, "body",
                                            "the required body left out", std::nullopt});
                     })});
  }
  // text/plain is no wrong type where a range admits it ("text/*", "*/*").
  const bool takes_text = std::any_of(
      op_.body->content.begin(), op_.body->content.end(), [](const openapi::media_type& m) {
        return m.name == "text/plain" || m.name == "text/*" || m.name == "*/*";
      });
  if (!takes_text) {
    // An empty body is no body at all: sent with any type it is the body
    // left out, which is valid where the body is optional. Only a body
    // with bytes in it has a wrong type.
    auto bytes = gen::map(such_that(
                              valid_body(), [](const body_bytes& b) { return !b.bytes.empty(); },
                              "valid " + media + " body with bytes in it"),
                          [](body_bytes b) {
                            b.content_type = "text/plain";
                            return b;
                          });
    sites.push_back(
        {request_mutation::wrong_content_type, "body",
         gen::map(gen::tuple(valid, bytes),
                  with_body(request_mutation::wrong_content_type, "body",
                            "a valid " + media + " body sent as text/plain", std::nullopt))});
  }
}

}  // namespace detail

std::string_view to_string(request_mutation m) {
  switch (m) {
    case request_mutation::none:
      return "none";
    case request_mutation::invalid_path_param:
      return "invalid_path_param";
    case request_mutation::invalid_query_param:
      return "invalid_query_param";
    case request_mutation::invalid_header_param:
      return "invalid_header_param";
    case request_mutation::missing_param:
      return "missing_param";
    case request_mutation::invalid_body:
      return "invalid_body";
    case request_mutation::missing_body:
      return "missing_body";
    case request_mutation::malformed_body:
      return "malformed_body";
    case request_mutation::wrong_content_type:
      return "wrong_content_type";
    case request_mutation::same_as_mismatch:
      return "same_as_mismatch";
    case request_mutation::invalid_cookie_param:
      return "invalid_cookie_param";
    case request_mutation::columns_not_in_header:
      return "columns_not_in_header";
  }
  return "unknown";
}

std::string request_mode::key() const {
  if (valid()) return {};
  std::string out(to_string(mutation));
  if (!where.empty()) out += " " + where;
  return out;
}

std::string generated_request::target() const {
  if (query.empty()) return path;
  return path + "?" + encode_query(query, reserved_query);
}

std::string encode_query(const std::vector<std::pair<std::string, std::string>>& query,
                         const std::vector<std::string>& reserved) {
  std::string out;
  for (const auto& [name, v] : query) {
    if (!out.empty()) out += '&';
    if (name.empty()) {
      // An in: querystring parameter written whole (JSON text, say): no name.
      out += generators::encode_query_value(v, false);
      continue;
    }
    out += core::percent_encode(name);
    out += '=';
    const bool keep = std::find(reserved.begin(), reserved.end(), name) != reserved.end();
    out += generators::encode_query_value(v, keep);
  }
  return out;
}

rc::Gen<generated_request> valid_request(const openapi::operation& op, fixture_lookup fixtures,
                                         const request_options& options) {
  auto b = std::make_shared<detail::request_builder>(op, std::move(fixtures), options);
  return rc::gen::map(b->valid_parts(),
                      [b](const detail::parts& p) { return b->assemble(p, request_mode{}); });
}

std::optional<rc::Gen<generated_request>> invalid_request(const openapi::operation& op,
                                                          fixture_lookup fixtures,
                                                          const request_options& options) {
  detail::request_builder b(op, std::move(fixtures), options);
  auto sites = b.invalid_sites();
  if (sites.empty()) return std::nullopt;
  std::vector<rc::Gen<generated_request>> gens;
  for (auto& s : sites) gens.push_back(std::move(s.gen));
  const std::size_t n = gens.size();
  return detail::mapcat(detail::pick_index(n),
                        [gens = std::move(gens)](std::size_t i) { return gens[i]; });
}

std::vector<std::string> request_mutations(const openapi::operation& op, fixture_lookup fixtures,
                                           const request_options& options) {
  detail::request_builder b(op, std::move(fixtures), options);
  std::vector<std::string> out;
  for (const auto& s : b.invalid_sites())
    out.push_back(std::string(to_string(s.mutation)) + " " + s.where);
  return out;
}

}  // namespace conform::generators
