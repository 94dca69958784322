#pragma once
// Private to generators/: the builder of whole requests for one operation
// (request.cpp: valid and invalid requests; coverage.cpp: the coverage
// cases). A request is first a set of "parts" (wire pairs per parameter, a
// body), assembled into a generated_request at the end.

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/text.hpp"
#include "generators/detail/checks.hpp"
#include "generators/detail/bind.hpp"
#include "generators/detail/body_gen.hpp"
#include "generators/detail/choice.hpp"
#include "generators/detail/filter.hpp"
#include "generators/detail/mutations.hpp"
#include "generators/detail/sequence.hpp"
#include "generators/detail/style.hpp"
#include "generators/detail/wire.hpp"
#include "generators/request.hpp"
#include "generators/value.hpp"
#include "schema/validator.hpp"

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
  detail::param_format format;           // how that parameter is written
  std::string where;                     // "path contact_id"
};

/// The object holding the member `pointer` names, and that member's name;
/// nullptr when a step is missing or not an object.
inline boost::json::object* parent_of(value& root, std::string_view pointer, std::string& last) {
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

class request_builder {
 public:
  request_builder(const openapi::operation& op, fixture_lookup fixtures,
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
        if (auto w = detail::write_param(detail::format_of(p), value(*e.fixture))) {
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
            slots_.push_back({b.pointer, b.node, e.index, detail::format_of(*e.p),
                              b.same_as.in + " " + b.same_as.name});
          }
        }
      }
    }
  }

  Gen<parts> valid_parts() const {
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
        value = gen::mapcat(detail::chance(options_.optional_param_percent),
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
        b = gen::mapcat(detail::chance(options_.optional_body_percent),
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

  /// Sets each x-same-as property the body carries to its parameter's value
  /// (read through the property's schema), where the body stays valid.
  static void keep_same_as(parts& ps, const std::vector<same_as_slot>& slots,
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
      value want = detail::read_param(slot.format, *slot.prop, *ps.params[slot.param]);
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

  /// Leaves out the body properties that mirror parameter `index` (x-same-as)
  /// where the body stays valid: once the parameter is broken, a copy of its
  /// old value would be a second thing wrong.
  void drop_same_as(parts& ps, std::size_t index) const {
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

  /// The valid parts with the x-same-as property of `slot` set to `other`,
  /// a value that differs from the parameter; nullopt when the body cannot
  /// carry it and stay valid by its schema.
  static std::optional<parts> break_same_as(parts ps, const same_as_slot& slot, const value& other,
                                            const schema::schema& body) {
    if (!ps.body || !ps.params[slot.param]) return std::nullopt;
    if (schema::json_equal(other,
                           detail::read_param(slot.format, *slot.prop, *ps.params[slot.param]))) {
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

  /// Requests whose x-same-as property of `slot` differs from its parameter.
  Gen<generated_request> same_as_site(const Gen<parts>& valid,
                                      const std::shared_ptr<request_builder>& self,
                                      const same_as_slot& slot) const {
    gen_options free = options_.values;
    free.fixture = nullptr;  // a fixture would give the parameter's own value
    const schema::schema* body = media_->schema;
    using maybe = std::optional<parts>;
    auto broken =
        gen::map(gen::suchThat(gen::map(gen::tuple(valid, valid_value(*slot.prop, free)),
                                        [slot, body](std::tuple<parts, value> t) {
                                          return break_same_as(std::move(std::get<0>(t)), slot,
                                                               std::get<1>(t), *body);
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

  generated_request assemble(const parts& in, request_mode mode) const {
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
    r.path = detail::fill_path(op_.path, path_values);
    if (in.body) {
      r.body = in.body->bytes;
      r.content_type = in.body->content_type;
      r.body_from_example = in.body->from_example;
    }
    r.fixtures_used = in.fixtures_used;
    const bool carries_values =
        in.body.has_value() || std::any_of(in.params.begin(), in.params.end(),
                                           [](const auto& p) { return p.has_value(); });
    r.documented = carries_values && (!in.body || in.body->from_example) && documented_params(in);
    r.mode = std::move(mode);
    return r;
  }

  /// True when every parameter `in` sends is a fixture or an example of its schema.
  bool documented_params(const parts& in) const {
    for (std::size_t i = 0; i < op_.parameters.size(); ++i) {
      if (!in.params[i]) continue;
      const openapi::parameter& p = op_.parameters[i];
      const bool fixture = std::any_of(in.fixtures_used.begin(), in.fixtures_used.end(),
                                       [&](const auto& f) { return f.first == p.name; });
      if (fixture) continue;
      if (p.schema == nullptr) return false;
      const value sent = detail::read_param(detail::format_of(p), *p.schema, *in.params[i]);
      bool shown = false;
      for (const schema::schema* n : {p.schema, &p.schema->resolved()}) {
        for (const value& v : n->examples) shown = shown || schema::json_equal(v, sent);
      }
      if (!shown) return false;
    }
    return true;
  }

  std::vector<request_site> invalid_sites() const {
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

  std::vector<coverage_case> coverage() const;

  static request_mutation mutation_for(param_location in) {
    return in == param_location::path     ? request_mutation::invalid_path_param
           : in == param_location::header ? request_mutation::invalid_header_param
           : in == param_location::cookie ? request_mutation::invalid_cookie_param
                                          : request_mutation::invalid_query_param;
  }

  /// How a parameter's values are broken: as text, unless it is a JSON
  /// `content` parameter (whose text is JSON, where a numeric string stays a string).
  static invalid_options param_breaking(const openapi::parameter& p) {
    invalid_options o;
    o.as_text = p.content_media.find("json") == std::string::npos;
    return o;
  }

  /// Valid parts with parameter `index` replaced by broken wire pairs.
  static Gen<generated_request> param_broken(const Gen<parts>& valid,
                                             const std::shared_ptr<request_builder>& self,
                                             std::size_t index, request_mutation m,
                                             const std::string& where,
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

 private:
  bool runner_controlled(const openapi::parameter& p) const {
    if (p.in != param_location::header) return false;
    return std::any_of(options_.runner_headers.begin(), options_.runner_headers.end(),
                       [&](const std::string& h) { return core::iequals(h, p.name); });
  }

  static const openapi::media_type* pick_media(const openapi::request_body& b) {
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

  bool json_media() const { return media_->name.find("json") != std::string::npos; }
  /// A sequential media type with an `itemSchema` (OpenAPI 3.2): the body
  /// is a sequence of items, each valid by it.
  bool sequential() const { return media_ != nullptr && media_->item_schema != nullptr; }

  Gen<body_bytes> sequence_body() const {
    return gen::map(valid_sequence(media_->name, *media_->item_schema, options_.values,
                                   options_.max_body_bytes),
                    [media = media_->name](std::string b) {
                      return body_bytes{std::move(b), media, false};
                    });
  }
  std::optional<Gen<std::pair<body_bytes, invalid_value>>> broken_items() const {
    auto g = broken_sequence(media_->name, *media_->item_schema, options_.values);
    if (!g) return std::nullopt;
    return gen::map(std::move(*g), [media = media_->name](std::pair<std::string, invalid_value> p) {
      return std::make_pair(body_bytes{std::move(p.first), media, false}, std::move(p.second));
    });
  }
  bool multipart_media() const { return media_->name == "multipart/form-data"; }
  bool urlencoded_media() const { return media_->name == "application/x-www-form-urlencoded"; }

  /// An object as a urlencoded body; `.second` is false unless the value the
  /// server reads back is `want_valid`.
  static std::pair<body_bytes, bool> urlencoded(const openapi::media_type& m, const value& v,
                                                bool from_example, bool want_valid) {
    if (!v.is_object() || m.schema == nullptr) return {body_bytes{}, false};
    const detail::wire_pairs w = detail::form_body(v.get_object(), *m.schema, m.encoding);
    std::vector<std::string> reserved;
    for (const auto& [name, e] : m.encoding) {
      if (e.allow_reserved) reserved.push_back(name);
    }
    const schema::judgement j = schema::judge(
        *m.schema, detail::read_form_body(*m.schema, w, m.encoding), detail::request_checks);
    const bool as_wanted =
        j == (want_valid ? schema::judgement::valid : schema::judgement::invalid);
    return {body_bytes{encode_query(w, reserved), m.name, from_example}, as_wanted};
  }

  Gen<wire_pairs> valid_wire(const openapi::parameter& p) const {
    const detail::param_format f = detail::format_of(p);
    if (p.schema == nullptr) {
      return gen::just(
          detail::write_param(f, value("conform")).value_or(wire_pairs{{p.name, "conform"}}));
    }
    const schema::schema* s = p.schema;
    auto written = gen::map(valid_value(*s, options_.values), [f](const value& v) {
      return detail::write_param(f, v).value_or(wire_pairs{});
    });
    const bool any_size = detail::forced_oversized(p);
    Gen<wire_pairs> g = such_that(
        written,
        [s, f, any_size](const wire_pairs& w) {
          if (!any_size && detail::oversized(f.in, w)) return false;
          if (!detail::travels(f.in, w)) return false;
          return schema::is_valid(*s, detail::read_param(f, *s, w), detail::request_checks);
        },
        "valid value of " + std::string(openapi::to_string(p.in)) + " " + p.name +
            " that can be written as its style says and reads back valid");
    if (p.in == param_location::query && p.allow_empty_value) {
      // allowEmptyValue: `name=` is a value the operation takes.
      g = gen::weightedOneOf<wire_pairs>({{85, g}, {15, gen::just(wire_pairs{{p.name, ""}})}});
    }
    return g;
  }

  std::optional<Gen<std::pair<wire_pairs, invalid_value>>> invalid_wire(
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
    auto bad = gen::mapcat(detail::pick_index(n),
                           [sites = std::move(sites)](std::size_t i) { return sites[i]; });
    auto g = wired(p, std::move(bad));
    if (!detail::can_generate(g)) return std::nullopt;
    return g;
  }

  /// True when the values of `bad` are written longer than servers take
  /// where `p` travels (two draws say so) and the schema does not force it.
  static bool oversized_site(const openapi::parameter& p, const Gen<invalid_value>& bad) {
    if (detail::forced_oversized(p)) return false;
    const detail::param_format f = detail::format_of(p);
    for (std::uint64_t seed : {11u, 29u}) {
      try {
        const invalid_value iv = bad(rc::Random(seed), static_cast<int>(seed)).value();
        const auto w = detail::write_param(f, *iv.json);
        if (!w || !detail::oversized(f.in, *w)) return false;
      } catch (const rc::GenerationFailure&) {
        return false;
      }
    }
    return true;
  }

  /// Invalid values of `p` as wire pairs that still read back as invalid
  /// (and, for a broken type, as a value of `as_type`: the type the case
  /// claims is the one the server reads).
  static Gen<std::pair<wire_pairs, invalid_value>> wired(
      const openapi::parameter& p, Gen<invalid_value> bad,
      std::optional<schema::json_type> as_type = std::nullopt) {
    const schema::schema* s = p.schema;
    const detail::param_format f = detail::format_of(p);
    if (oversized_site(p, bad)) {  // no draw would do: say so at once
      return gen::map(gen::just(0), [](int) -> std::pair<wire_pairs, invalid_value> {
        throw rc::GenerationFailure("every value is longer than HTTP servers take");
      });
    }
    const bool empty_ok = p.allow_empty_value;
    const bool any_size = detail::forced_oversized(p);
    return such_that(
        gen::map(std::move(bad),
                 [f](invalid_value iv) {
                   wire_pairs w = detail::write_param(f, *iv.json).value_or(wire_pairs{});
                   return std::make_pair(std::move(w), std::move(iv));
                 }),
        [s, f, empty_ok, as_type, any_size](const std::pair<wire_pairs, invalid_value>& w) {
          // Longer than servers take: a 414 or 431 says nothing of the value.
          if (!any_size && detail::oversized(f.in, w.first)) return false;
          if (!detail::travels(f.in, w.first)) return false;
          if (empty_ok && w.first.size() == 1 && w.first.front().second.empty())
            return false;  // allowEmptyValue: an empty value is accepted
          const value read = detail::read_param(f, *s, w.first);
          if (as_type && w.second.pointer.empty() && detail::json_type_of(read) != *as_type) {
            return false;  // read back as another type than the case claims
          }
          return schema::is_invalid(*s, read, detail::request_checks);
        },
        "invalid value of " + std::string(openapi::to_string(p.in)) + " " + p.name +
            " that can be written as its style says and reads back invalid");
  }

  /// Boundary values of `p` as wire pairs that still read back as valid; a
  /// value longer than servers take (unless the schema forces it) is no
  /// case, and its generator says so.
  static Gen<wire_pairs> wired_valid(const openapi::parameter& p, Gen<value> good) {
    const schema::schema* s = p.schema;
    const detail::param_format f = detail::format_of(p);
    const bool any_size = detail::forced_oversized(p);
    auto written = gen::map(std::move(good), [f, any_size](const value& v) {
      wire_pairs w = detail::write_param(f, v).value_or(wire_pairs{});
      // A boundary's length is the boundary's: beyond what servers take, no draw fits.
      if (auto why = any_size ? std::nullopt : detail::oversized(f.in, w)) {
        throw rc::GenerationFailure("a " + *why);
      }
      return w;
    });
    return such_that(
        written,
        [s, f](const wire_pairs& w) {
          if (!detail::travels(f.in, w)) return false;
          return schema::is_valid(*s, detail::read_param(f, *s, w), detail::request_checks);
        },
        "boundary value of " + std::string(openapi::to_string(p.in)) + " " + p.name +
            " that can be written as its style says and reads back valid");
  }

  /// The media type's examples that validate, else the schema's own.
  std::vector<value> body_examples() const {
    std::vector<value> out;
    const schema::schema* s = media_->schema;
    for (const value& v : media_->examples) {
      if (schema::is_valid(*s, v, detail::request_checks)) out.push_back(v);
    }
    for (const schema::schema* n : {s, &s->resolved()}) {
      if (!out.empty()) break;
      for (const value& v : n->examples) {
        if (schema::is_valid(*s, v, detail::request_checks)) out.push_back(v);
      }
      if (!out.empty()) break;
    }
    return out;
  }

  Gen<body_bytes> valid_body() const {
    if (sequential()) return sequence_body();
    const std::string media = media_->name;
    if (media_->schema == nullptr) {
      return gen::just(body_bytes{json_media() ? "{}" : "", media, false});
    }
    const schema::schema* s = media_->schema;
    Gen<std::pair<value, bool>> values = gen::map(valid_value(*s, options_.values), [](value v) {
      return std::make_pair(std::move(v), false);
    });
    const auto& pinned = options_.body_values;
    if (!pinned.empty()) {
      values =
          gen::map(std::move(values), [s, o = options_.values, pinned](std::pair<value, bool> v) {
            detail::bind_values(v.first, *s, o, pinned);
            return v;
          });
    }
    auto examples = body_examples();
    // An example names its own ids: the profile's fixtures and the pinned
    // values take their places.
    for (auto& e : examples) detail::bind_values(e, *s, options_.values, pinned);
    if (!examples.empty() && options_.example_body_percent > 0) {
      const auto p = static_cast<std::size_t>(std::clamp(options_.example_body_percent, 0, 100));
      auto from_examples = gen::map(gen::elementOf(examples),
                                    [](value v) { return std::make_pair(std::move(v), true); });
      values = p >= 100 ? from_examples
                        : gen::weightedOneOf<std::pair<value, bool>>(
                              {{p, std::move(from_examples)}, {100 - p, values}});
    }
    const std::size_t max = options_.max_body_bytes;
    if (urlencoded_media()) {
      const openapi::media_type* m = media_;
      return gen::map(gen::suchThat(gen::map(values,
                                             [m](const std::pair<value, bool>& v) {
                                               return urlencoded(*m, v.first, v.second, true);
                                             }),
                                    [max](const std::pair<body_bytes, bool>& b) {
                                      return b.second && b.first.bytes.size() <= max;
                                    }),
                      [](std::pair<body_bytes, bool> b) { return std::move(b.first); });
    }
    Gen<body_bytes> bytes =
        multipart_media() ? multipart(values) : gen::map(values, [media](std::pair<value, bool> v) {
          std::string text = v.first.is_string() && media.find("json") == std::string::npos
                                 ? std::string(v.first.get_string())
                                 : boost::json::serialize(v.first);
          return body_bytes{std::move(text), media, v.second};
        });
    return gen::suchThat(bytes, [max](const body_bytes& b) { return b.bytes.size() <= max; });
  }

  /// Multipart bodies from object values; text/csv parts of generated values
  /// get a small CSV (a header row and 1-3 rows) instead of a random string.
  Gen<body_bytes> multipart(Gen<std::pair<value, bool>> values) const {
    const schema::schema* s = media_->schema;
    const auto encoding = media_->part_content_types;
    using made = std::pair<body_bytes, bool>;
    return gen::map(
        gen::suchThat(
            gen::map(gen::tuple(values, detail::csv_text(), detail::boundary_gen()),
                     [encoding, s](std::tuple<std::pair<value, bool>, std::string, std::string> t) {
                       const auto& [v, from_example] = std::get<0>(t);
                       if (!v.is_object()) return made(body_bytes{}, false);
                       auto ps = detail::form_parts(v.get_object(), encoding, *s);
                       if (!from_example) {
                         for (auto& part : ps) {
                           if (part.content_type == "text/csv") part.content = std::get<1>(t);
                         }
                       }
                       return finish_multipart(*s, std::move(ps), std::get<2>(t), from_example,
                                               true);
                     }),
            [](const made& b) { return b.second; }),
        [](made b) { return std::move(b.first); });
  }

  /// The body of `ps` with a fresh boundary; `.second` is false when the
  /// boundary clashes or the value the server reads back is not `want_valid`.
  static std::pair<body_bytes, bool> finish_multipart(const schema::schema& s,
                                                      std::vector<detail::form_part> ps,
                                                      const std::string& boundary,
                                                      bool from_example, bool want_valid) {
    const bool clash = std::any_of(ps.begin(), ps.end(), [&](const detail::form_part& p) {
      return p.content.find(boundary) != std::string::npos;
    });
    const schema::judgement j = schema::judge(s, detail::from_parts(s, ps), detail::request_checks);
    const bool as_wanted =
        j == (want_valid ? schema::judgement::valid : schema::judgement::invalid);
    body_bytes b{detail::multipart_body(ps, boundary), "multipart/form-data; boundary=" + boundary,
                 from_example};
    return {std::move(b), !clash && as_wanted};
  }

  void body_sites(const Gen<parts>& valid, const std::shared_ptr<request_builder>& self,
                  std::vector<request_site>& sites) const;

  /// Bodies that break the schema as the server reads them, in the media
  /// type chosen (JSON, multipart or urlencoded); nullopt for others.
  std::optional<Gen<std::pair<body_bytes, invalid_value>>> broken_bodies() const {
    if (sequential()) return broken_items();
    const schema::schema* s = media_->schema;
    if (s == nullptr || !(json_media() || multipart_media() || urlencoded_media()))
      return std::nullopt;
    invalid_options breaking;
    breaking.form = !json_media();
    auto bad = invalid_values(*s, options_.values, breaking);
    if (!bad) return std::nullopt;
    return broken_body(std::move(*bad));
  }

  /// Invalid values of the body as the bytes to send, checked invalid as the
  /// server reads them back (JSON, multipart or urlencoded).
  Gen<std::pair<body_bytes, invalid_value>> broken_body(Gen<invalid_value> bad) const {
    const schema::schema* s = media_->schema;
    const std::string media = media_->name;
    if (sequential()) {
      return gen::map(std::move(bad), [media](invalid_value iv) {
        std::string bytes = iv.json ? sequence_text(media, {*iv.json}) : iv.raw + "\n";
        return std::make_pair(body_bytes{std::move(bytes), media, false}, std::move(iv));
      });
    }
    if (json_media()) {
      return gen::map(std::move(bad), [media](invalid_value iv) {
        return std::make_pair(body_bytes{iv.body(), media, false}, std::move(iv));
      });
    }
    using made = std::tuple<body_bytes, bool, invalid_value>;
    const openapi::media_type* m = media_;
    const bool form = urlencoded_media();
    auto written = gen::map(
        gen::tuple(std::move(bad), detail::boundary_gen()),
        [m, s, form](std::tuple<invalid_value, std::string> t) {
          invalid_value iv = std::move(std::get<0>(t));
          if (!iv.json->is_object()) return made(body_bytes{}, false, iv);
          auto b =
              form ? urlencoded(*m, *iv.json, false, false)
                   : finish_multipart(
                         *s, detail::form_parts(iv.json->get_object(), m->part_content_types, *s),
                         std::get<1>(t), false, false);
          return made(std::move(b.first), b.second, std::move(iv));
        });
    return gen::map(such_that(
                        written, [](const made& t) { return std::get<1>(t); },
                        "invalid " + media_->name + " body that reads back invalid part by part"),
                    [](made t) {
                      return std::make_pair(std::move(std::get<0>(t)), std::move(std::get<2>(t)));
                    });
  }

  /// Valid parts with the body replaced by a broken one.
  Gen<generated_request> body_broken(const Gen<parts>& valid,
                                     const std::shared_ptr<request_builder>& self,
                                     Gen<std::pair<body_bytes, invalid_value>> broken) const {
    return gen::map(gen::tuple(valid, std::move(broken)), [self](
                                                              std::tuple<parts,
                                                                         std::pair<body_bytes,
                                                                                   invalid_value>>
                                                                  t) {
      parts ps = std::move(std::get<0>(t));
      auto& [bytes, iv] = std::get<1>(t);
      ps.body = std::move(bytes);
      const std::string where = "body " + (iv.pointer.empty() ? std::string("/") : iv.pointer);
      request_mode mode{request_mutation::invalid_body, where, "body " + iv.description, iv.kind};
      return self->assemble(ps, std::move(mode));
    });
  }

  /// A valid body on the edge of one constraint, as bytes in the media type
  /// chosen, checked valid as the server reads it back.
  Gen<body_bytes> boundary_body(Gen<value> good) const {
    const std::string media = media_->name;
    const schema::schema* s = media_->schema;
    if (sequential()) {
      return gen::map(std::move(good), [media](const value& v) {
        return body_bytes{sequence_text(media, {v}), media, false};
      });
    }
    if (json_media()) {
      return gen::map(std::move(good), [media](const value& v) {
        return body_bytes{boost::json::serialize(v), media, false};
      });
    }
    using made = std::pair<body_bytes, bool>;
    const openapi::media_type* m = media_;
    const bool form = urlencoded_media();
    return gen::map(
        gen::suchThat(gen::map(gen::tuple(std::move(good), detail::boundary_gen()),
                               [m, s, form](std::tuple<value, std::string> t) {
                                 const value& v = std::get<0>(t);
                                 if (!v.is_object()) return made(body_bytes{}, false);
                                 if (form) return urlencoded(*m, v, false, true);
                                 return finish_multipart(
                                     *s,
                                     detail::form_parts(v.get_object(), m->part_content_types, *s),
                                     std::get<1>(t), false, true);
                               }),
                      [](const made& b) { return b.second; }),
        [](made b) { return std::move(b.first); });
  }

  const openapi::operation& op_;
  fixture_lookup fixtures_;
  request_options options_;
  std::vector<param_entry> entries_;
  const openapi::media_type* media_ = nullptr;
  std::vector<same_as_slot> slots_;  // JSON bodies only
};

}  // namespace conform::generators::detail
