#include "http/message.hpp"

namespace conform::http {

std::string_view method_name(verb v) {
  const auto s = beast_http::to_string(v);
  return {s.data(), s.size()};
}

std::string_view method_name(const request& req) {
  return req.method == verb::unknown && !req.method_text.empty() ? req.method_text
                                                                 : method_name(req.method);
}

std::optional<verb> parse_verb(std::string_view s) {
  std::string upper(s);
  for (auto& c : upper) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  const verb v = beast_http::string_to_verb(upper);
  if (v == verb::unknown) return std::nullopt;
  return v;
}

bool is_idempotent(verb v) {
  switch (v) {
    case verb::get:
    case verb::head:
    case verb::put:
    case verb::delete_:
    case verb::options:
    case verb::trace:
      return true;
    default:
      return false;
  }
}

request& request::add_header(std::string name, std::string value) {
  headers.emplace_back(std::move(name), std::move(value));
  return *this;
}

const std::string* request::find_header(std::string_view name) const {
  for (const auto& [n, v] : headers) {
    if (iequals(n, name)) return &v;
  }
  return nullptr;
}

request& request::remove_header(std::string_view name) {
  std::erase_if(headers, [&](const auto& h) { return iequals(h.first, name); });
  return *this;
}

request& request::set_header(std::string name, std::string value) {
  remove_header(name);
  return add_header(std::move(name), std::move(value));
}

const std::string* response::find(field f) const {
  for (const auto& h : headers) {
    if (h.known == f) return &h.value;
  }
  return nullptr;
}

const std::string* response::find(std::string_view name) const {
  for (const auto& h : headers) {
    if (iequals(h.name, name)) return &h.value;
  }
  return nullptr;
}

std::vector<std::string_view> response::find_all(std::string_view name) const {
  std::vector<std::string_view> out;
  for (const auto& h : headers) {
    if (iequals(h.name, name)) out.emplace_back(h.value);
  }
  return out;
}

std::string_view to_string(transport_error::kind k) {
  switch (k) {
    case transport_error::kind::resolve:
      return "resolve";
    case transport_error::kind::connect:
      return "connect";
    case transport_error::kind::tls:
      return "tls";
    case transport_error::kind::timeout:
      return "timeout";
    case transport_error::kind::too_large:
      return "too_large";
    case transport_error::kind::protocol:
      return "protocol";
    case transport_error::kind::closed:
      return "closed";
    case transport_error::kind::io:
      return "io";
    case transport_error::kind::invalid_request:
      return "invalid_request";
  }
  return "io";
}

}  // namespace conform::http
