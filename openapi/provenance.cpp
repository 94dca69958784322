#include "openapi/provenance.hpp"

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_map>

namespace conform::openapi {

namespace {

using schema::provenance;

/// Every x-assumption of the description by "<file>#<pointer>": the spec's
/// own (parameters, headers, bodies, responses) and each schema node's.
using provenance_index = std::unordered_map<std::string, const std::vector<provenance>*>;

provenance_index index_of(const api_spec& spec) {
  provenance_index index;
  for (const auto& [where, entries] : spec.x_assumptions) index.emplace(where, &entries);
  spec.arena->each([&](const schema::schema& s) {
    if (!s.provenance.empty()) index.emplace(s.pos.file + s.location, &s.provenance);
  });
  return index;
}

std::vector<provenance> covering(const std::vector<provenance>& entries, std::string_view keyword) {
  std::vector<provenance> out;
  for (const auto& p : entries) {
    if (p.covers(keyword)) out.push_back(p);
  }
  return out;
}

/// The nearest entries covering `keyword`, from `location` (a "#/..." JSON
/// pointer in `file`) up through the objects it is written inside.
std::vector<provenance> nearest(const provenance_index& index, const std::string& file,
                                std::string location, std::string_view keyword) {
  for (;;) {
    if (auto it = index.find(file + location); it != index.end()) {
      auto found = covering(*it->second, keyword);
      if (!found.empty()) return found;
    }
    const std::size_t slash = location.rfind('/');
    if (slash == std::string::npos || location.size() <= 1) return {};
    location.resize(slash);
    if (location.empty() || location == "#") return {};
  }
}

void add_schema_constraints(const provenance_index& index, const schema::schema& s,
                            std::vector<constraint_ground>& out);

/// The constraints of `n` and of every subschema it holds (through $ref,
/// each node once), with their grounds.
void subtree_constraints(const provenance_index& index, const schema::schema& n,
                         std::set<const schema::schema*>& seen,
                         std::vector<constraint_ground>& out) {
  if (!seen.insert(&n).second) return;
  add_schema_constraints(index, n, out);
  auto walk = [&](const schema::schema* sub) {
    if (sub != nullptr) subtree_constraints(index, *sub, seen, out);
  };
  walk(n.ref);
  for (const auto* p : n.prefix_items) walk(p);
  walk(n.items);
  for (const auto& [name, p] : n.properties) walk(p);
  walk(n.additional_properties);
  for (const auto* b : n.all_of) walk(b);
  for (const auto* b : n.any_of) walk(b);
  for (const auto* b : n.one_of) walk(b);
  walk(n.not_schema);
}

/// What grounds the `not` of `s`: what grounds the constraints written
/// under it (an x-assumption inside the subschema, or one above it that
/// covers them), so that a `not` over assumed constraints alone is assumed.
/// A subschema with no constraint of its own takes the nearest entry of `s`
/// that covers `not`; one with an ungrounded constraint is ungrounded.
std::vector<provenance> not_grounds(const provenance_index& index, const schema::schema& s) {
  std::set<const schema::schema*> seen{&s};
  std::vector<constraint_ground> inner;
  subtree_constraints(index, *s.not_schema, seen, inner);
  if (inner.empty()) return nearest(index, s.pos.file, s.location, "not");
  std::vector<provenance> out;
  for (const auto& c : inner) {
    if (!c.grounded()) return {};
    for (const auto& g : c.grounds) {
      const bool known = std::any_of(out.begin(), out.end(),
                                     [&](const provenance& p) { return p.text() == g.text(); });
      if (!known) out.push_back(g);
    }
  }
  return out;
}

void add_schema_constraints(const provenance_index& index, const schema::schema& s,
                            std::vector<constraint_ground>& out) {
  auto ground = [&](std::string keyword, std::string property, std::vector<provenance> g) {
    constraint_ground c;
    c.file = s.pos.file;
    c.location = s.location;
    c.keyword = std::move(keyword);
    c.property = std::move(property);
    c.pos = s.pos;
    c.grounds = std::move(g);
    out.push_back(std::move(c));
  };
  for (const auto& kw : constraint_keywords(s)) {
    if (kw == "required") continue;
    if (kw == "not") {
      ground(kw, "", not_grounds(index, s));
      continue;
    }
    ground(kw, "", nearest(index, s.pos.file, s.location, kw));
  }
  for (const auto& name : s.required) {
    // The property's own x-assumption, when it speaks of `required`, says
    // why it is required; else whatever grounds the object's `required`.
    std::vector<provenance> g;
    if (const schema::schema* p = s.property(name)) g = covering(p->provenance, "required");
    if (g.empty()) g = nearest(index, s.pos.file, s.location, "required");
    ground("required", name, std::move(g));
  }
}

}  // namespace

bool constraint_ground::assumed() const {
  return !grounds.empty() && std::all_of(grounds.begin(), grounds.end(),
                                         [](const provenance& p) { return p.assumed(); });
}

std::string constraint_ground::where() const {
  std::string out = location + "/" + keyword;
  if (!property.empty()) out += "/" + property;
  return out;
}

std::string constraint_ground::text() const {
  std::string out = where() + ":";
  for (std::size_t i = 0; i < grounds.size(); ++i) {
    out += (i == 0 ? " " : "; ") + grounds[i].text();
  }
  return out;
}

std::vector<std::string> constraint_keywords(const schema::schema& s) {
  std::vector<std::string> out;
  if (s.ref != nullptr || s.boolean != schema::schema::boolean_form::none) return out;
  if (!s.types.any()) out.emplace_back("type");
  if (s.format) out.emplace_back("format");
  if (s.pattern) out.emplace_back("pattern");
  if (!s.enum_values.empty()) out.emplace_back("enum");
  if (s.const_value) out.emplace_back("const");
  if (s.minimum) out.emplace_back("minimum");
  if (s.maximum) out.emplace_back("maximum");
  if (s.exclusive_minimum) out.emplace_back("exclusiveMinimum");
  if (s.exclusive_maximum) out.emplace_back("exclusiveMaximum");
  if (s.multiple_of) out.emplace_back("multipleOf");
  if (s.min_length) out.emplace_back("minLength");
  if (s.max_length) out.emplace_back("maxLength");
  if (s.min_items) out.emplace_back("minItems");
  if (s.max_items) out.emplace_back("maxItems");
  if (s.unique_items) out.emplace_back("uniqueItems");
  if (!s.required.empty()) out.emplace_back("required");
  if (!s.additional_allowed) out.emplace_back("additionalProperties");
  if (s.min_properties) out.emplace_back("minProperties");
  if (s.max_properties) out.emplace_back("maxProperties");
  if (!s.dependent_required.empty()) out.emplace_back("dependentRequired");
  if (s.not_schema != nullptr) out.emplace_back("not");
  return out;
}

std::vector<constraint_ground> constraint_grounds(const api_spec& spec) {
  const provenance_index index = index_of(spec);
  std::vector<constraint_ground> out;
  spec.arena->each([&](const schema::schema& s) { add_schema_constraints(index, s, out); });
  auto object_required = [&](const std::string& location, const source_pos& pos) {
    constraint_ground c;
    const std::size_t hash = location.find('#');
    c.file = location.substr(0, hash);
    c.location = hash == std::string::npos ? location : location.substr(hash);
    c.keyword = "required";
    c.pos = pos;
    c.grounds = nearest(index, c.file, c.location, "required");
    out.push_back(std::move(c));
  };
  for (const auto& op : spec.operations) {
    for (const auto& p : op.parameters) {
      // A path parameter is required by OpenAPI itself.
      if (p.required && p.in != param_location::path) object_required(p.location, p.pos);
    }
    if (op.body && op.body->required) object_required(op.body->location, op.body->pos);
  }
  // Each once (a component parameter serves many operations; two nodes may
  // share a location), in the order of the file.
  std::set<std::tuple<std::string, std::string, std::string, std::string>> seen;
  std::erase_if(out, [&](const constraint_ground& c) {
    return !seen.emplace(c.file, c.location, c.keyword, c.property).second;
  });
  std::stable_sort(out.begin(), out.end(),
                   [](const constraint_ground& a, const constraint_ground& b) {
                     return std::tie(a.pos.file, a.pos.line, a.pos.column) <
                            std::tie(b.pos.file, b.pos.line, b.pos.column);
                   });
  return out;
}

void resolve_provenance(api_spec& spec) {
  const provenance_index index = index_of(spec);
  spec.arena->each([&](schema::schema& s) {
    s.assumed.clear();
    std::vector<constraint_ground> grounds;
    add_schema_constraints(index, s, grounds);
    for (const auto& c : grounds) {
      if (c.assumed()) s.assumed.push_back({c.keyword, c.property, c.text()});
    }
  });
  auto required_text = [&](const std::string& location) -> std::string {
    const std::size_t hash = location.find('#');
    constraint_ground c;
    c.file = location.substr(0, hash);
    c.location = hash == std::string::npos ? location : location.substr(hash);
    c.keyword = "required";
    c.grounds = nearest(index, c.file, c.location, "required");
    return c.assumed() ? c.text() : std::string();
  };
  for (auto& op : spec.operations) {
    for (auto& p : op.parameters) {
      if (p.required && p.in != param_location::path)
        p.required_assumption = required_text(p.location);
    }
    if (op.body && op.body->required)
      op.body->required_assumption = required_text(op.body->location);
  }
}

}  // namespace conform::openapi
