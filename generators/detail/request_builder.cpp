// The request builder's parameters' side (detail/request_builder.hpp): the
// valid parts, the x-same-as bindings between body and parameters, the
// assembly of a request, and each parameter's valid and broken wire values.

#include "generators/detail/request_builder.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <map>

#include "core/text.hpp"
#include "generators/detail/body_gen.hpp"
#include "generators/detail/checks.hpp"
#include "generators/detail/choice.hpp"
#include "generators/detail/filter.hpp"
#include "generators/detail/memo.hpp"
#include "generators/detail/mutations.hpp"
#include "schema/validator.hpp"

namespace conform::generators::detail {

namespace {

/// The object holding the member `pointer` names, and that member's name;
/// nullptr when a step is missing or not an object.
boost::json::object* parent_of(value& root, std::string_view pointer, std::string& last) {
  std::vector<std::string> tokens;
  for (std::size_t i = 1; i <= pointer.size();) {
    const std::size_t j = std::min(pointer.find('/', i), pointer.size());
    std::string t(pointer.substr(i, j - i));
    for (std::size_t k = 0; (k = t.find('~', k)) != std::string::npos; ++k) {
      t.replace(k, 2, k + 1 < t.size() && t[k + 1] == '1' ? "/" : "~");
    }
    tokens.push_back(std::move(t));
    i = j + 1;
  }
  if (tokens.empty()) return nullptr;
  value* at = &root;
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    auto* o = at->if_object();
    if (o == nullptr) return nullptr;
    at = o->if_contains(tokens[i]);
    if (at == nullptr) return nullptr;
  }
  last = tokens.back();
  return at->if_object();
}

}  // namespace

request_builder::request_builder(const openapi::operation& op, fixture_lookup fixtures,
                                 const request_options& options)
    : op_(op), fixtures_(std::move(fixtures)), options_(options) {
  for (std::size_t i = 0; i < op.parameters.size(); ++i) {
    const openapi::parameter& p = op.parameters[i];
    if (runner_controlled(p)) continue;
    param_entry e;
    e.p = &p;
    e.index = i;
    e.required = p.required || p.in == param_location::path;
    if (fixtures_) e.fixture = fixtures_(p);
    // A value the caller pins (a fixture, an id a link gave) is always sent.
    if (e.fixture) e.required = true;
    e.valid = valid_wire(p);
    if (e.fixture) {
      if (auto w = generators::write_param(generators::format_of(p), value(*e.fixture))) {
        e.valid = gen::just(std::move(*w));
      }
    }
    entries_.push_back(std::move(e));
  }
  if (op.body) media_ = pick_media(*op.body);
  if (media_ != nullptr && media_->schema != nullptr && json_media() && !sequential()) {
    for (const auto& b : openapi::same_as_bindings(*media_->schema)) {
      for (const auto& e : entries_) {
        if (e.p->name == b.same_as.name && openapi::to_string(e.p->in) == b.same_as.in) {
          slots_.push_back({b.pointer, b.node, e.index, generators::format_of(*e.p),
                            b.same_as.in + " " + b.same_as.name});
        }
      }
    }
  }
}

Gen<parts> request_builder::valid_parts() const {
  std::optional<Gen<body_bytes>> body;
  if (media_ != nullptr) body = valid_body();
  const bool body_required = op_.body && op_.body->required;
  // map / mapcat / tuple only (no gen::exec): safe to run on any thread.
  parts empty;
  empty.params.resize(op_.parameters.size());
  Gen<parts> acc = gen::just(std::move(empty));
  using maybe = std::optional<wire_pairs>;
  for (const auto& e : entries_) {
    Gen<maybe> value = gen::map(e.valid, [](wire_pairs t) { return maybe(std::move(t)); });
    if (!e.required) {
      value = detail::mapcat(detail::chance(options_.optional_param_percent),
                             [value](bool on) { return on ? value : gen::just(maybe()); });
    }
    acc = gen::map(gen::tuple(acc, value), [index = e.index, name = e.p->name,
                                            fixture = e.fixture](std::tuple<parts, maybe> t) {
      parts out = std::move(std::get<0>(t));
      if (std::get<1>(t)) {
        out.params[index] = std::move(*std::get<1>(t));
        if (fixture) out.fixtures_used.emplace_back(name, *fixture);
      }
      return out;
    });
  }
  if (body) {
    using maybe_body = std::optional<body_bytes>;
    Gen<maybe_body> b = gen::map(*body, [](body_bytes x) { return maybe_body(std::move(x)); });
    if (!body_required) {
      b = detail::mapcat(detail::chance(options_.optional_body_percent),
                         [b](bool on) { return on ? b : gen::just(maybe_body()); });
    }
    acc = gen::map(gen::tuple(acc, b), [](std::tuple<parts, maybe_body> t) {
      parts out = std::move(std::get<0>(t));
      out.body = std::move(std::get<1>(t));
      return out;
    });
  }
  if (!slots_.empty()) {
    acc = gen::map(std::move(acc), [slots = slots_, body = media_->schema](parts ps) {
      keep_same_as(ps, slots, *body);
      return ps;
    });
  }
  return acc;
}

void request_builder::keep_same_as(parts& ps, const std::vector<same_as_slot>& slots,
                                   const schema::schema& body) {
  if (!ps.body) return;
  boost::system::error_code ec;
  value root = boost::json::parse(ps.body->bytes, ec);
  if (ec) return;
  bool changed = false;
  for (const auto& slot : slots) {
    if (!ps.params[slot.param]) continue;
    std::string name;
    auto* parent = parent_of(root, slot.pointer, name);
    value* current = parent ? parent->if_contains(name) : nullptr;
    if (current == nullptr) continue;
    value want = generators::read_param(slot.format, *slot.prop, *ps.params[slot.param]);
    if (schema::json_equal(*current, want)) continue;
    value saved = std::exchange(*current, std::move(want));
    if (schema::is_valid(body, root, detail::request_checks)) {
      changed = true;
    } else {
      *current = std::move(saved);
    }
  }
  if (changed) {
    ps.body->bytes = boost::json::serialize(root);
    ps.body->from_example = false;
  }
}

void request_builder::drop_same_as(parts& ps, std::size_t index) const {
  if (!ps.body) return;
  for (const auto& slot : slots_) {
    if (slot.param != index) continue;
    boost::system::error_code ec;
    value root = boost::json::parse(ps.body->bytes, ec);
    if (ec) return;
    std::string name;
    auto* parent = parent_of(root, slot.pointer, name);
    if (parent == nullptr || parent->erase(name) == 0) continue;
    if (!schema::is_valid(*media_->schema, root, detail::request_checks)) continue;
    ps.body->bytes = boost::json::serialize(root);
    ps.body->from_example = false;
  }
}

std::optional<parts> request_builder::break_same_as(parts ps, const same_as_slot& slot,
                                                    const value& other,
                                                    const schema::schema& body) {
  if (!ps.body || !ps.params[slot.param]) return std::nullopt;
  if (schema::json_equal(other,
                         generators::read_param(slot.format, *slot.prop, *ps.params[slot.param]))) {
    return std::nullopt;
  }
  boost::system::error_code ec;
  value root = boost::json::parse(ps.body->bytes, ec);
  if (ec) return std::nullopt;
  std::string name;
  auto* parent = parent_of(root, slot.pointer, name);
  if (parent == nullptr) return std::nullopt;
  (*parent)[name] = other;
  if (!schema::is_valid(body, root, detail::request_checks)) return std::nullopt;
  ps.body->bytes = boost::json::serialize(root);
  ps.body->from_example = false;
  return ps;
}

Gen<generated_request> request_builder::same_as_site(const Gen<parts>& valid,
                                                     const std::shared_ptr<request_builder>& self,
                                                     const same_as_slot& slot) const {
  gen_options free = options_.values;
  free.fixture = nullptr;  // a fixture would give the parameter's own value
  const schema::schema* body = media_->schema;
  using maybe = std::optional<parts>;
  auto broken =
      gen::map(detail::such_that_kept(gen::map(gen::tuple(valid, valid_value(*slot.prop, free)),
                                               [slot, body](std::tuple<parts, value> t) {
                                                 return break_same_as(std::move(std::get<0>(t)),
                                                                      slot, std::get<1>(t), *body);
                                               }),
                                      [](const maybe& m) { return m.has_value(); }),
               [](maybe m) { return std::move(*m); });
  const std::string where = "body " + slot.pointer;
  return gen::map(
      broken, [self, where,
               what = where + " differs from " + slot.where + " (x-same-as)"](const parts& ps) {
        return self->assemble(
            ps, request_mode{request_mutation::same_as_mismatch, where, what, std::nullopt});
      });
}

generated_request request_builder::assemble(const parts& in, request_mode mode) const {
  generated_request r;
  r.op = &op_;
  r.method = op_.method;
  std::map<std::string, std::string> path_values;
  for (std::size_t i = 0; i < op_.parameters.size(); ++i) {
    const openapi::parameter& p = op_.parameters[i];
    if (!in.params[i]) continue;
    const wire_pairs& w = *in.params[i];
    switch (p.in) {
      case param_location::path:
        if (!w.empty()) path_values[p.name] = w.front().second;
        break;
      case param_location::query:
      case param_location::querystring:
        r.query.insert(r.query.end(), w.begin(), w.end());
        if (p.allow_reserved) {
          for (const auto& kv : w) r.reserved_query.push_back(kv.first);
        }
        break;
      case param_location::header:
        if (!w.empty()) r.headers.emplace_back(p.name, w.front().second);
        break;
      case param_location::cookie:
        r.cookies.insert(r.cookies.end(), w.begin(), w.end());
        break;
    }
  }
  r.path = generators::fill_path(op_.path, path_values);
  if (in.body) {
    r.body = in.body->bytes;
    r.content_type = in.body->content_type;
    r.body_from_example = in.body->from_example;
  }
  r.fixtures_used = in.fixtures_used;
  const bool carries_values =
      in.body.has_value() ||
      std::any_of(in.params.begin(), in.params.end(), [](const auto& p) { return p.has_value(); });
  r.documented = carries_values && (!in.body || in.body->from_example) && documented_params(in);
  r.mode = std::move(mode);
  return r;
}

bool request_builder::documented_params(const parts& in) const {
  for (std::size_t i = 0; i < op_.parameters.size(); ++i) {
    if (!in.params[i]) continue;
    const openapi::parameter& p = op_.parameters[i];
    const bool fixture = std::any_of(in.fixtures_used.begin(), in.fixtures_used.end(),
                                     [&](const auto& f) { return f.first == p.name; });
    if (fixture) continue;
    if (p.schema == nullptr) return false;
    // No example to match (most parameters): not shown, without reading it back.
    if (p.schema->examples.empty() && p.schema->resolved().examples.empty()) return false;
    const value sent = generators::read_param(generators::format_of(p), *p.schema, *in.params[i]);
    bool shown = false;
    for (const schema::schema* n : {p.schema, &p.schema->resolved()}) {
      for (const value& v : n->examples) shown = shown || schema::json_equal(v, sent);
    }
    if (!shown) return false;
  }
  return true;
}

std::vector<request_site> request_builder::invalid_sites() const {
  std::vector<request_site> sites;
  const Gen<parts> valid = valid_parts();
  auto self = std::make_shared<request_builder>(*this);
  for (const auto& e : entries_) {
    const openapi::parameter& p = *e.p;
    const std::string where = std::string(openapi::to_string(p.in)) + " " + p.name;
    const request_mutation m = mutation_for(p.in);
    if (auto broken = invalid_wire(p)) {
      sites.push_back({m, where, param_broken(valid, self, e.index, m, where, *broken)});
    }
    if (p.required && p.in != param_location::path) {
      sites.push_back({request_mutation::missing_param, where,
                       gen::map(valid, [self, index = e.index, where](parts ps) {
                         ps.params[index].reset();
                         request_mode mode{request_mutation::missing_param, where,
                                           "the required " + where + " left out", std::nullopt};
                         return self->assemble(ps, std::move(mode));
                       })});
    }
  }
  if (media_ != nullptr) body_sites(valid, self, sites);
  std::erase_if(sites, [](const request_site& s) { return !detail::can_generate(s.gen); });
  return sites;
}

request_mutation request_builder::mutation_for(param_location in) {
  return in == param_location::path     ? request_mutation::invalid_path_param
         : in == param_location::header ? request_mutation::invalid_header_param
         : in == param_location::cookie ? request_mutation::invalid_cookie_param
                                        : request_mutation::invalid_query_param;
}

invalid_options request_builder::param_breaking(const openapi::parameter& p) {
  invalid_options o;
  o.as_text = p.content_media.find("json") == std::string::npos;
  return o;
}

Gen<generated_request> request_builder::param_broken(
    const Gen<parts>& valid, const std::shared_ptr<request_builder>& self, std::size_t index,
    request_mutation m, const std::string& where,
    Gen<std::pair<wire_pairs, invalid_value>> broken) {
  return gen::map(
      gen::tuple(valid, std::move(broken)),
      [self, index, m, where](std::tuple<parts, std::pair<wire_pairs, invalid_value>> t) {
        parts ps = std::move(std::get<0>(t));
        auto& [wire, iv] = std::get<1>(t);
        ps.params[index] = wire;
        self->drop_same_as(ps, index);
        std::erase_if(ps.fixtures_used,
                      [&](const auto& f) { return f.first == self->op_.parameters[index].name; });
        request_mode mode{m, where, where + ": " + iv.description, iv.kind};
        return self->assemble(ps, std::move(mode));
      });
}

bool request_builder::runner_controlled(const openapi::parameter& p) const {
  if (p.in != param_location::header) return false;
  return std::any_of(options_.runner_headers.begin(), options_.runner_headers.end(),
                     [&](const std::string& h) { return core::iequals(h, p.name); });
}

const openapi::media_type* request_builder::pick_media(const openapi::request_body& b) {
  for (const auto& m : b.content) {
    if (m.name == "application/json" || m.name.ends_with("+json")) return &m;
  }
  for (const char* form : {"multipart/form-data", "application/x-www-form-urlencoded"}) {
    for (const auto& m : b.content) {
      if (m.name == form) return &m;
    }
  }
  return b.content.empty() ? nullptr : &b.content.front();
}

Gen<wire_pairs> request_builder::valid_wire(const openapi::parameter& p) const {
  const generators::param_format f = generators::format_of(p);
  if (p.schema == nullptr) {
    return gen::just(
        generators::write_param(f, value("conform")).value_or(wire_pairs{{p.name, "conform"}}));
  }
  const schema::schema* s = p.schema;
  auto written = gen::map(valid_value(*s, options_.values), [f](const value& v) {
    return generators::write_param(f, v).value_or(wire_pairs{});
  });
  const bool any_size = generators::forced_oversized(p);
  Gen<wire_pairs> g = such_that(
      written,
      [s, f, any_size](const wire_pairs& w) {
        if (!any_size && generators::oversized(f.in, w)) return false;
        if (!generators::travels(f.in, w)) return false;
        return schema::is_valid(*s, generators::read_param(f, *s, w), detail::request_checks);
      },
      "valid value of " + std::string(openapi::to_string(p.in)) + " " + p.name +
          " that can be written as its style says and reads back valid");
  if (p.in == param_location::query && p.allow_empty_value) {
    // allowEmptyValue: `name=` is a value the operation takes.
    g = detail::weighted_one_of<wire_pairs>({{85, g}, {15, gen::just(wire_pairs{{p.name, ""}})}});
  }
  return g;
}

std::optional<Gen<std::pair<wire_pairs, invalid_value>>> request_builder::invalid_wire(
    const openapi::parameter& p) const {
  if (p.schema == nullptr) return std::nullopt;
  // invalid_values' sites, without those whose every value is longer than
  // servers take (maxLength + 1 of a large maxLength): drawn and refused
  // again and again, they would only cost time.
  std::vector<Gen<invalid_value>> sites;
  for (auto& site : invalid_value_sites(*p.schema, options_.values, param_breaking(p))) {
    if (!oversized_site(p, site.gen)) sites.push_back(std::move(site.gen));
  }
  if (sites.empty()) return std::nullopt;
  const std::size_t n = sites.size();
  auto bad = detail::mapcat(detail::pick_index(n),
                            [sites = std::move(sites)](std::size_t i) { return sites[i]; });
  auto g = wired(p, std::move(bad));
  if (!detail::can_generate(g)) return std::nullopt;
  return g;
}

bool request_builder::oversized_site(const openapi::parameter& p, const Gen<invalid_value>& bad) {
  if (generators::forced_oversized(p)) return false;
  const generators::param_format f = generators::format_of(p);
  for (std::uint64_t seed : {11u, 29u}) {
    try {
      const invalid_value iv = bad(rc::Random(seed), static_cast<int>(seed)).value();
      const auto w = generators::write_param(f, *iv.json);
      if (!w || !generators::oversized(f.in, *w)) return false;
    } catch (const rc::GenerationFailure&) {
      return false;
    }
  }
  return true;
}

Gen<std::pair<wire_pairs, invalid_value>> request_builder::wired(
    const openapi::parameter& p, Gen<invalid_value> bad, std::optional<schema::json_type> as_type) {
  const schema::schema* s = p.schema;
  const generators::param_format f = generators::format_of(p);
  if (oversized_site(p, bad)) {  // no draw would do: say so at once
    return gen::map(gen::just(0), [](int) -> std::pair<wire_pairs, invalid_value> {
      throw rc::GenerationFailure("every value is longer than HTTP servers take");
    });
  }
  const bool empty_ok = p.allow_empty_value;
  const bool any_size = generators::forced_oversized(p);
  return such_that(
      gen::map(std::move(bad),
               [f](invalid_value iv) {
                 wire_pairs w = generators::write_param(f, *iv.json).value_or(wire_pairs{});
                 return std::make_pair(std::move(w), std::move(iv));
               }),
      [s, f, empty_ok, as_type, any_size](const std::pair<wire_pairs, invalid_value>& w) {
        // Longer than servers take: a 414 or 431 says nothing of the value.
        if (!any_size && generators::oversized(f.in, w.first)) return false;
        if (!generators::travels(f.in, w.first)) return false;
        if (empty_ok && w.first.size() == 1 && w.first.front().second.empty())
          return false;  // allowEmptyValue: an empty value is accepted
        const value read = generators::read_param(f, *s, w.first);
        if (as_type && w.second.pointer.empty() && detail::json_type_of(read) != *as_type) {
          return false;  // read back as another type than the case claims
        }
        return schema::is_invalid(*s, read, detail::request_checks);
      },
      "invalid value of " + std::string(openapi::to_string(p.in)) + " " + p.name +
          " that can be written as its style says and reads back invalid");
}

Gen<wire_pairs> request_builder::wired_valid(const openapi::parameter& p, Gen<value> good) {
  const schema::schema* s = p.schema;
  const generators::param_format f = generators::format_of(p);
  const bool any_size = generators::forced_oversized(p);
  auto written = gen::map(std::move(good), [f, any_size](const value& v) {
    wire_pairs w = generators::write_param(f, v).value_or(wire_pairs{});
    // A boundary's length is the boundary's: beyond what servers take, no draw fits.
    if (auto why = any_size ? std::nullopt : generators::oversized(f.in, w)) {
      throw rc::GenerationFailure("a " + *why);
    }
    return w;
  });
  return such_that(
      written,
      [s, f](const wire_pairs& w) {
        if (!generators::travels(f.in, w)) return false;
        return schema::is_valid(*s, generators::read_param(f, *s, w), detail::request_checks);
      },
      "boundary value of " + std::string(openapi::to_string(p.in)) + " " + p.name +
          " that can be written as its style says and reads back valid");
}

}  // namespace conform::generators::detail
