#include "http/detail/response_parser.hpp"

namespace conform::http::detail {

response_parser::response_parser(response& out) : out_(out) {
  out_.status = 0;
  out_.headers.clear();
  out_.headers.reserve(8);
  out_.body.clear();
}

void response_parser::on_response_impl(int code, string_view, int version, error_code&) {
  out_.status = static_cast<unsigned>(code);
  out_.version = static_cast<unsigned>(version);
}

void response_parser::on_field_impl(field name, string_view name_string, string_view value,
                                    error_code&) {
  out_.headers.push_back(header{name, std::string(name_string.data(), name_string.size()),
                                std::string(value.data(), value.size())});
}

void response_parser::on_body_init_impl(boost::optional<std::uint64_t> const& content_length,
                                        error_code&) {
  // The base class has already refused a Content-Length over the body limit.
  if (content_length) out_.body.reserve(static_cast<std::size_t>(*content_length));
}

std::size_t response_parser::on_body_impl(string_view body, error_code&) {
  out_.body.append(body.data(), body.size());
  return body.size();
}

std::size_t response_parser::on_chunk_body_impl(std::uint64_t, string_view body, error_code&) {
  out_.body.append(body.data(), body.size());
  return body.size();
}

}  // namespace conform::http::detail
