#pragma once
// A Beast parser that reads a response straight into conform::http::response
// (no intermediate fields container).

#include <boost/beast/http/basic_parser.hpp>

#include "http/message.hpp"

namespace conform::http::detail {

/// Fills `out` while parsing; header and body caps come from the caller.
class response_parser final : public boost::beast::http::basic_parser<false> {
 public:
  /// Parses into `out` (cleared first).
  explicit response_parser(response& out);

 private:
  using error_code = boost::beast::error_code;
  using string_view = boost::beast::string_view;

  void on_request_impl(verb, string_view, string_view, int, error_code&) override {}
  void on_response_impl(int code, string_view reason, int version, error_code& ec) override;
  void on_field_impl(field name, string_view name_string, string_view value,
                     error_code& ec) override;
  void on_header_impl(error_code&) override {}
  void on_body_init_impl(boost::optional<std::uint64_t> const& content_length,
                         error_code& ec) override;
  std::size_t on_body_impl(string_view body, error_code& ec) override;
  void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t remain, string_view body, error_code& ec) override;
  void on_finish_impl(error_code&) override {}

  response& out_;
};

}  // namespace conform::http::detail
