#pragma once
// What the transport tests share: the URL of a local test server and a GET.

#include <string>

#include "http/message.hpp"
#include "http/url.hpp"

namespace conform::test_support {

/// `scheme`://127.0.0.1:`port`/api/v1, the base the test servers answer under.
inline http::url local(unsigned short port, const char* scheme = "http") {
  return *http::parse_url(std::string(scheme) + "://127.0.0.1:" + std::to_string(port) + "/api/v1")
              .value;
}

/// A GET of `target` (below the base).
inline http::request get(std::string target) {
  http::request r;
  r.target = std::move(target);
  return r;
}

}  // namespace conform::test_support
