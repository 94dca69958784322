// The request builder's body side (detail/request_builder.hpp): valid
// bodies as bytes in the media type chosen (JSON, multipart, urlencoded, a
// sequence), and the broken and boundary bodies checked as the server reads
// them back.

#include <boost/json/serialize.hpp>

#include <algorithm>

#include "generators/detail/bind.hpp"
#include "generators/detail/body_gen.hpp"
#include "generators/detail/checks.hpp"
#include "generators/detail/columns.hpp"
#include "generators/detail/filter.hpp"
#include "generators/detail/memo.hpp"
#include "generators/detail/request_builder.hpp"
#include "generators/detail/sequence.hpp"
#include "schema/validator.hpp"

namespace conform::generators::detail {

Gen<body_bytes> request_builder::sequence_body() const {
  return gen::map(
      valid_sequence(media_->name, *media_->item_schema, options_.values, options_.max_body_bytes),
      [media = media_->name](std::string b) {
        return body_bytes{std::move(b), media, false};
      });
}
std::optional<Gen<std::pair<body_bytes, invalid_value>>> request_builder::broken_items() const {
  auto g = broken_sequence(media_->name, *media_->item_schema, options_.values);
  if (!g) return std::nullopt;
  return gen::map(std::move(*g), [media = media_->name](std::pair<std::string, invalid_value> p) {
    return std::make_pair(body_bytes{std::move(p.first), media, false}, std::move(p.second));
  });
}
std::pair<body_bytes, bool> request_builder::urlencoded(const openapi::media_type& m,
                                                        const value& v, bool from_example,
                                                        bool want_valid) {
  if (!v.is_object() || m.schema == nullptr) return {body_bytes{}, false};
  const generators::wire_pairs w = generators::form_body(v.get_object(), *m.schema, m.encoding);
  std::vector<std::string> reserved;
  for (const auto& [name, e] : m.encoding) {
    if (e.allow_reserved) reserved.push_back(name);
  }
  const schema::judgement j = schema::judge(
      *m.schema, generators::read_form_body(*m.schema, w, m.encoding), detail::request_checks);
  const bool as_wanted = j == (want_valid ? schema::judgement::valid : schema::judgement::invalid);
  return {body_bytes{encode_query(w, reserved), m.name, from_example}, as_wanted};
}

std::vector<value> request_builder::body_examples() const {
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

Gen<body_bytes> request_builder::valid_body() const {
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
                      : detail::weighted_one_of<std::pair<value, bool>>(
                            {{p, std::move(from_examples)}, {100 - p, values}});
  }
  const std::size_t max = options_.max_body_bytes;
  if (urlencoded_media()) {
    const openapi::media_type* m = media_;
    return gen::map(detail::such_that_kept(gen::map(values,
                                                    [m](const std::pair<value, bool>& v) {
                                                      return urlencoded(*m, v.first, v.second,
                                                                        true);
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
  return detail::such_that_kept(bytes,
                                [max](const body_bytes& b) { return b.bytes.size() <= max; });
}

Gen<body_bytes> request_builder::multipart(Gen<std::pair<value, bool>> values) const {
  const schema::schema* s = media_->schema;
  const auto encoding = media_->part_content_types;
  using made = std::pair<body_bytes, bool>;
  return gen::map(
      detail::such_that_kept(
          gen::map(gen::tuple(values, detail::csv_text(), detail::boundary_gen()),
                   [encoding, s](std::tuple<std::pair<value, bool>, std::string, std::string> t) {
                     const auto& [v, from_example] = std::get<0>(t);
                     if (!v.is_object()) return made(body_bytes{}, false);
                     auto ps = generators::form_parts(v.get_object(), encoding, *s);
                     if (!from_example) {
                       for (auto& part : ps) {
                         if (part.content_type == "text/csv") part.content = std::get<1>(t);
                       }
                     }
                     return finish_multipart(*s, std::move(ps), std::get<2>(t), from_example, true);
                   }),
          [](const made& b) { return b.second; }),
      [](made b) { return std::move(b.first); });
}

std::optional<Gen<body_bytes>> request_builder::columns_broken_body() const {
  const schema::schema* s = media_ == nullptr ? nullptr : media_->schema;
  if (s == nullptr || !multipart_media() || openapi::columns_bindings(*s).empty()) {
    return std::nullopt;
  }
  const auto encoding = media_->part_content_types;
  using made = std::pair<body_bytes, bool>;
  return gen::map(detail::such_that_kept(
                      gen::map(gen::tuple(valid_value(*s, options_.values), detail::csv_text(),
                                          detail::boundary_gen()),
                               [encoding, s](std::tuple<value, std::string, std::string> t) {
                                 const value& v = std::get<0>(t);
                                 if (!v.is_object()) return made(body_bytes{}, false);
                                 auto ps = generators::form_parts(v.get_object(), encoding, *s);
                                 for (auto& part : ps) {
                                   if (part.content_type == "text/csv")
                                     part.content = std::get<1>(t);
                                 }
                                 if (!detail::break_columns(ps, *s))
                                   return made(body_bytes{}, false);
                                 return finish_multipart(*s, std::move(ps), std::get<2>(t), false,
                                                         true, false);
                               }),
                      [](const made& b) { return b.second; }),
                  [](made b) { return std::move(b.first); });
}

std::pair<body_bytes, bool> request_builder::finish_multipart(const schema::schema& s,
                                                              std::vector<generators::form_part> ps,
                                                              const std::string& boundary,
                                                              bool from_example, bool want_valid,
                                                              bool columns_kept) {
  if (columns_kept) detail::keep_columns(ps, s);
  const bool clash = std::any_of(ps.begin(), ps.end(), [&](const generators::form_part& p) {
    return p.content.find(boundary) != std::string::npos;
  });
  const schema::judgement j =
      schema::judge(s, generators::from_parts(s, ps), detail::request_checks);
  const bool as_wanted = j == (want_valid ? schema::judgement::valid : schema::judgement::invalid);
  body_bytes b{generators::multipart_body(ps, boundary),
               "multipart/form-data; boundary=" + boundary, from_example};
  return {std::move(b), !clash && as_wanted};
}

std::optional<Gen<std::pair<body_bytes, invalid_value>>> request_builder::broken_bodies() const {
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

Gen<std::pair<body_bytes, invalid_value>> request_builder::broken_body(
    Gen<invalid_value> bad) const {
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
                       *s, generators::form_parts(iv.json->get_object(), m->part_content_types, *s),
                       std::get<1>(t), false, false);
        return made(std::move(b.first), b.second, std::move(iv));
      });
  return gen::map(
      such_that(
          written, [](const made& t) { return std::get<1>(t); },
          "invalid " + media_->name + " body that reads back invalid part by part"),
      [](made t) { return std::make_pair(std::move(std::get<0>(t)), std::move(std::get<2>(t))); });
}

Gen<generated_request> request_builder::body_broken(
    const Gen<parts>& valid, const std::shared_ptr<request_builder>& self,
    Gen<std::pair<body_bytes, invalid_value>> broken) const {
  return gen::map(
      gen::tuple(valid, std::move(broken)),
      [self](std::tuple<parts, std::pair<body_bytes, invalid_value>> t) {
        parts ps = std::move(std::get<0>(t));
        auto& [bytes, iv] = std::get<1>(t);
        ps.body = std::move(bytes);
        const std::string where = "body " + (iv.pointer.empty() ? std::string("/") : iv.pointer);
        request_mode mode{request_mutation::invalid_body, where, "body " + iv.description, iv.kind};
        return self->assemble(ps, std::move(mode));
      });
}

Gen<body_bytes> request_builder::boundary_body(Gen<value> good) const {
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
      detail::such_that_kept(
          gen::map(gen::tuple(std::move(good), detail::boundary_gen()),
                   [m, s, form](std::tuple<value, std::string> t) {
                     const value& v = std::get<0>(t);
                     if (!v.is_object()) return made(body_bytes{}, false);
                     if (form) return urlencoded(*m, v, false, true);
                     return finish_multipart(
                         *s, generators::form_parts(v.get_object(), m->part_content_types, *s),
                         std::get<1>(t), false, true);
                   }),
          [](const made& b) { return b.second; }),
      [](made b) { return std::move(b.first); });
}

}  // namespace conform::generators::detail
