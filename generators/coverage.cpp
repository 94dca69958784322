// The coverage cases of an operation: one request generator per constraint
// (docs/checks.md, "the coverage phase").

#include "generators/detail/body_gen.hpp"
#include "generators/detail/request_builder.hpp"

namespace conform::generators {

namespace detail {

namespace {

/// What a case that breaks the request rather than a value tests.
std::string request_keyword(request_mutation m) {
  switch (m) {
    case request_mutation::missing_param:
      return "required parameter";
    case request_mutation::missing_body:
      return "required body";
    case request_mutation::malformed_body:
      return "malformed body";
    case request_mutation::wrong_content_type:
      return "content type";
    default:
      return std::string(to_string(m));
  }
}

}  // namespace

void request_builder::parameter_cases(const Gen<parts>& valid,
                                      const std::shared_ptr<request_builder>& self,
                                      std::vector<coverage_case>& out) const {
  for (const auto& e : entries_) {
    const openapi::parameter& p = *e.p;
    if (p.schema == nullptr) continue;
    const std::string where = std::string(openapi::to_string(p.in)) + " " + p.name;
    const request_mutation m = mutation_for(p.in);
    for (auto& site : invalid_value_sites(*p.schema, options_.values, param_breaking(p))) {
      auto broken = wired(p, std::move(site.gen), site.as_type);
      // Some values cannot be written where the parameter travels (an empty
      // array in a query is the parameter left out; a boolean in a query
      // of integers reads back as a string): not a case of their own.
      if (!detail::can_generate(broken, 8)) continue;
      out.push_back(
          {request_kind::invalid, std::string(to_string(m)) + " " + where + " " + site.description,
           param_broken(valid, self, e.index, m, where, std::move(broken)), site.keyword});
    }
    if (e.fixture) continue;  // its valid value is the profile's, not a boundary
    for (auto& site : boundary_value_sites(*p.schema, options_.values)) {
      const std::string what = "boundary " + where + " " + site.description;
      auto written = wired_valid(p, std::move(site.gen));
      // An empty array in a query or a cookie is no pair at all (RFC 6570:
      // the parameter left out), which valid requests already send. A value
      // longer than servers take stays a case: uncovered, saying why.
      if (auto why = detail::why_no_value(written, 8);
          why && why->find(generators::beyond_servers) == std::string::npos) {
        continue;
      }
      out.push_back(
          {request_kind::valid, what,
           gen::map(gen::tuple(valid, std::move(written)),
                    [self, index = e.index, where, what](std::tuple<parts, wire_pairs> t) {
                      parts ps = std::move(std::get<0>(t));
                      ps.params[index] = std::move(std::get<1>(t));
                      return self->assemble(
                          ps, request_mode{request_mutation::none, where, what, std::nullopt});
                    }),
           site.keyword});
    }
  }
}

void request_builder::body_cases(const Gen<parts>& valid,
                                 const std::shared_ptr<request_builder>& self,
                                 std::vector<coverage_case>& out) const {
  // A sequential body (itemSchema) is covered item by item.
  const schema::schema* whole = media_ == nullptr ? nullptr
                                : sequential()    ? media_->item_schema
                                                  : media_->schema;
  if (whole == nullptr ||
      !(sequential() || json_media() || multipart_media() || urlencoded_media())) {
    return;
  }
  const schema::schema& body = *whole;
  invalid_options breaking;
  breaking.form = !json_media() && !sequential();
  for (auto& site : invalid_value_sites(body, options_.values, breaking)) {
    auto broken = broken_body(std::move(site.gen));
    // A form body is an object of parts: a value of another type cannot be
    // written as one, so it is not a case of its own.
    if (!json_media() && !detail::can_generate(broken, 8)) continue;
    out.push_back({request_kind::invalid, "invalid_body body " + site.description,
                   body_broken(valid, self, std::move(broken)), site.keyword});
  }
  for (auto& site : boundary_value_sites(body, options_.values)) {
    const std::string what = "boundary body " + site.description;
    const std::string where = "body " + (site.pointer.empty() ? std::string("/") : site.pointer);
    auto bytes = boundary_body(std::move(site.gen));
    out.push_back(
        {request_kind::valid, what,
         gen::map(gen::tuple(valid, bytes),
                  [self, where, what, slots = slots_, s = &body](std::tuple<parts, body_bytes> t) {
                    parts ps = std::move(std::get<0>(t));
                    ps.body = std::move(std::get<1>(t));
                    keep_same_as(ps, slots, *s);
                    return self->assemble(
                        ps, request_mode{request_mutation::none, where, what, std::nullopt});
                  }),
         site.keyword});
  }
}

std::vector<coverage_case> request_builder::coverage() const {
  std::vector<coverage_case> out;
  const Gen<parts> valid = valid_parts();
  auto self = std::make_shared<request_builder>(*this);
  auto add = [&out](request_kind kind, std::string constraint, Gen<generated_request> g,
                    std::string keyword) {
    out.push_back({kind, std::move(constraint), std::move(g), std::move(keyword)});
  };
  add(request_kind::valid, "valid",
      gen::map(valid, [self](const parts& ps) { return self->assemble(ps, request_mode{}); }),
      "valid");
  // Content negotiation: the valid request as clients that name no type
  // send it (curl's `*/*`, or no Accept at all). Whatever the server then
  // chooses, errors too, must be a type the description documents.
  for (const char* type : {"*/*", ""}) {
    const std::string accept = type;
    const std::string what = accept.empty() ? "no Accept" : "Accept: " + accept;
    add(request_kind::valid, "negotiation " + what,
        gen::map(valid,
                 [self, accept, what](const parts& ps) {
                   auto r = self->assemble(ps, request_mode{request_mutation::none, "header Accept",
                                                            what, std::nullopt});
                   r.accept = accept;
                   return r;
                 }),
        "Accept");
  }
  parameter_cases(valid, self, out);
  // x-same-as broken, one case per property. Only here, not among the
  // random sites: a mismatch needs a whole valid body of the right shape
  // (often one branch of a oneOf), which a large random example makes
  // costly to find again and again, while one case per run tests it.
  for (const auto& slot : slots_) {
    add(request_kind::invalid, "same_as_mismatch body " + slot.pointer,
        same_as_site(valid, self, slot), "x-same-as");
  }
  // x-columns-of broken, once: a mapped column the CSV part's header lacks.
  if (auto broken = columns_broken_body()) {
    const auto binding = openapi::columns_bindings(*media_->schema).front();
    const std::string where = "body /" + binding.property;
    const std::string what = where + " maps a column the header row of part " +
                             binding.columns.part + " lacks (x-columns-of)";
    add(request_kind::invalid, "columns_not_in_header " + where,
        gen::map(gen::tuple(valid, std::move(*broken)),
                 [self, where, what](std::tuple<parts, body_bytes> t) {
                   parts ps = std::move(std::get<0>(t));
                   ps.body = std::move(std::get<1>(t));
                   return self->assemble(ps, request_mode{request_mutation::columns_not_in_header,
                                                          where, what, std::nullopt});
                 }),
        "x-columns-of");
  }
  // The sites that break the request, not a value: required parameters and
  // bodies left out, malformed JSON, the wrong content type.
  for (auto& site : invalid_sites()) {
    if (site.mutation == request_mutation::invalid_path_param ||
        site.mutation == request_mutation::invalid_query_param ||
        site.mutation == request_mutation::invalid_header_param ||
        site.mutation == request_mutation::invalid_cookie_param ||
        site.mutation == request_mutation::invalid_body) {
      continue;  // covered constraint by constraint
    }
    add(request_kind::invalid, std::string(to_string(site.mutation)) + " " + site.where,
        std::move(site.gen), request_keyword(site.mutation));
  }
  body_cases(valid, self, out);
  return out;
}

}  // namespace detail

std::vector<coverage_case> coverage_cases(const openapi::operation& op, fixture_lookup fixtures,
                                          const request_options& options) {
  return detail::request_builder(op, std::move(fixtures), options).coverage();
}

}  // namespace conform::generators
