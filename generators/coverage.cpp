// The coverage cases of an operation: one request generator per constraint
// (docs/checks.md, "the coverage phase").

#include "generators/detail/request_builder.hpp"

namespace conform::generators {

namespace detail {

std::vector<coverage_case> request_builder::coverage() const {
  std::vector<coverage_case> out;
  const Gen<parts> valid = valid_parts();
  auto self = std::make_shared<request_builder>(*this);
  auto add = [&out](request_kind kind, std::string constraint, Gen<generated_request> g) {
    out.push_back({kind, std::move(constraint), std::move(g)});
  };
  auto at = [](const std::string& pointer) { return pointer.empty() ? std::string("/") : pointer; };
  add(request_kind::valid, "valid",
      gen::map(valid, [self](const parts& ps) { return self->assemble(ps, request_mode{}); }));
  for (const auto& e : entries_) {
    const openapi::parameter& p = *e.p;
    if (p.schema == nullptr || p.in == param_location::cookie) continue;
    const std::string where = std::string(openapi::to_string(p.in)) + " " + p.name;
    const request_mutation m = mutation_for(p.in);
    for (auto& site : invalid_value_sites(*p.schema, options_.values)) {
      auto broken = wired(p, std::move(site.gen));
      // Some values cannot be written where the parameter travels (an empty
      // array in a query is the parameter left out): not a case of their own.
      if (!detail::can_generate(broken, 8)) continue;
      add(request_kind::invalid, std::string(to_string(m)) + " " + where + " " + site.description,
          param_broken(valid, self, e.index, m, where, std::move(broken)));
    }
    if (e.fixture) continue;  // its valid value is the profile's, not a boundary
    for (auto& site : boundary_value_sites(*p.schema, options_.values)) {
      const std::string what = "boundary " + where + " " + site.description;
      add(request_kind::valid, what,
          gen::map(gen::tuple(valid, wired_valid(p, std::move(site.gen))),
                   [self, index = e.index, where, what](std::tuple<parts, wire_pairs> t) {
                     parts ps = std::move(std::get<0>(t));
                     ps.params[index] = std::move(std::get<1>(t));
                     return self->assemble(
                         ps, request_mode{request_mutation::none, where, what, std::nullopt});
                   }));
    }
  }
  // x-same-as broken, one case per property. Only here, not among the
  // random sites: a mismatch needs a whole valid body of the right shape
  // (often one branch of a oneOf), which a large random example makes
  // costly to find again and again, while one case per run tests it.
  for (const auto& slot : slots_) {
    add(request_kind::invalid, "same_as_mismatch body " + slot.pointer,
        same_as_site(valid, self, slot));
  }
  // The sites that break the request, not a value: required parameters and
  // bodies left out, malformed JSON, the wrong content type.
  for (auto& site : invalid_sites()) {
    if (site.mutation == request_mutation::invalid_path_param ||
        site.mutation == request_mutation::invalid_query_param ||
        site.mutation == request_mutation::invalid_header_param ||
        site.mutation == request_mutation::invalid_body) {
      continue;  // covered constraint by constraint
    }
    add(request_kind::invalid, std::string(to_string(site.mutation)) + " " + site.where,
        std::move(site.gen));
  }
  // A sequential body (itemSchema) is covered item by item.
  const schema::schema* whole = media_ == nullptr ? nullptr
                                : sequential()    ? media_->item_schema
                                                  : media_->schema;
  if (whole == nullptr ||
      !(sequential() || json_media() || multipart_media() || urlencoded_media())) {
    return out;
  }
  const schema::schema& body = *whole;
  for (auto& site : invalid_value_sites(body, options_.values)) {
    auto broken = broken_body(std::move(site.gen));
    // A form body is an object of parts: a value of another type cannot be
    // written as one, so it is not a case of its own.
    if (!json_media() && !detail::can_generate(broken, 8)) continue;
    add(request_kind::invalid, "invalid_body body " + site.description,
        body_broken(valid, self, std::move(broken)));
  }
  for (auto& site : boundary_value_sites(body, options_.values)) {
    const std::string what = "boundary body " + site.description;
    const std::string where = "body " + at(site.pointer);
    auto bytes = boundary_body(std::move(site.gen));
    add(request_kind::valid, what,
        gen::map(gen::tuple(valid, bytes),
                 [self, where, what, slots = slots_, s = &body](std::tuple<parts, body_bytes> t) {
                   parts ps = std::move(std::get<0>(t));
                   ps.body = std::move(std::get<1>(t));
                   keep_same_as(ps, slots, *s);
                   return self->assemble(
                       ps, request_mode{request_mutation::none, where, what, std::nullopt});
                 }));
  }
  return out;
}

}  // namespace detail

std::vector<coverage_case> coverage_cases(const openapi::operation& op, fixture_lookup fixtures,
                                          const request_options& options) {
  return detail::request_builder(op, std::move(fixtures), options).coverage();
}

}  // namespace conform::generators
