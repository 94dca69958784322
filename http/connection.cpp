#include "http/connection.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <array>
#include <charconv>
#include <optional>

#include "http/detail/deadline_socket.hpp"
#include "http/detail/response_parser.hpp"

namespace conform::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::ip::tcp;
using error_code = boost::system::error_code;
using steady = std::chrono::steady_clock;

class tls_context {
 public:
  tls_context() : ctx(asio::ssl::context::tls_client) {}
  asio::ssl::context ctx;
  bool verify = true;
};

core::outcome<std::shared_ptr<tls_context>> make_tls_context(const tls_options& opts) {
  auto c = std::make_shared<tls_context>();
  c->verify = opts.verify;
  SSL_CTX_set_min_proto_version(c->ctx.native_handle(), TLS1_2_VERSION);
  error_code ec;
  if (!opts.client_cert_pem.empty() || !opts.client_key_pem.empty()) {
    // Mutual TLS: presented when the server asks. Never echo the key.
    c->ctx.use_certificate_chain(asio::buffer(opts.client_cert_pem), ec);
    if (ec) {
      return core::fail("cannot read the client certificate (PEM): " + ec.message());
    }
    c->ctx.use_private_key(asio::buffer(opts.client_key_pem), asio::ssl::context::pem, ec);
    if (ec && ec.category() == asio::error::get_ssl_category() &&
        ERR_GET_REASON(static_cast<unsigned long>(ec.value())) == X509_R_KEY_VALUES_MISMATCH) {
      return core::fail("the client certificate and its private key do not belong together");
    }
    if (ec) {
      return core::fail("cannot read the client certificate's private key (PEM): " + ec.message());
    }
    if (SSL_CTX_check_private_key(c->ctx.native_handle()) != 1) {
      return core::fail("the client certificate and its private key do not belong together");
    }
  }
  if (!opts.verify) {
    c->ctx.set_verify_mode(asio::ssl::verify_none, ec);
    return c;
  }
  c->ctx.set_verify_mode(asio::ssl::verify_peer, ec);
  c->ctx.set_default_verify_paths(ec);
  if (ec) {
    return core::fail("cannot load the system trust store: " + ec.message());
  }
  if (!opts.ca_file.empty()) {
    c->ctx.load_verify_file(opts.ca_file, ec);
    if (ec) {
      return core::fail("cannot load CA file '" + opts.ca_file + "': " + ec.message());
    }
  }
  if (!opts.ca_pem.empty()) {
    c->ctx.add_certificate_authority(asio::buffer(opts.ca_pem), ec);
    if (ec) {
      return core::fail("cannot load the given CA certificate: " + ec.message());
    }
  }
  return c;
}

namespace {

transport_error make_error(transport_error::kind k, std::string message) {
  return transport_error{k, std::move(message)};
}

bool has_crlf(std::string_view s) {
  return s.find_first_of("\r\n") != std::string_view::npos;
}

std::string ms_text(std::chrono::milliseconds d) {
  return std::to_string(d.count()) + " ms";
}

}  // namespace

struct connection::impl {
  impl(url t, connection_options o, std::shared_ptr<tls_context> c)
      : target(std::move(t)), opts(std::move(o)), tls(std::move(c)) {
    where = target.authority();
    if (target.default_port()) where += ":" + std::to_string(target.port);
    if (target.scheme == url_scheme::https && !tls) {
      auto made = make_tls_context(opts.tls);
      if (made.ok()) {
        tls = std::move(made).value();
      } else {
        tls_error = std::move(made).error();
      }
    }
    // The name the certificate must carry: the URL's host unless the
    // options name another (a target reached by address).
    tls_name = opts.tls.server_name.empty() ? target.host : opts.tls.server_name;
    boost::system::error_code ec;
    (void)asio::ip::make_address(tls_name, ec);
    tls_name_is_ip = !ec;
  }

  url target;
  connection_options opts;
  std::shared_ptr<tls_context> tls;
  std::string tls_error;
  std::string where;     // "host:port" for messages
  std::string tls_name;  // sent as SNI and verified against the certificate
  bool tls_name_is_ip = false;

  asio::io_context ioc{1};  // never run: supplies the executor and the resolver
  std::optional<tcp::resolver::results_type> endpoints;
  detail::deadline_socket socket{ioc};
  std::optional<asio::ssl::stream<detail::deadline_socket&>> secure;
  beast::flat_buffer buffer;
  std::string head;  // the serialized request head, reused
  bool open = false;
  std::uint64_t connects = 0;
  std::chrono::milliseconds timeout{0};  // the total timeout of the send under way

  void close() {
    secure.reset();
    socket.close();
    buffer.consume(buffer.size());
    open = false;
  }

  /// True when an idle kept-alive connection has something to read (the
  /// peer's FIN, a reset, a TLS close_notify or an unsolicited answer).
  bool stale() { return buffer.size() != 0 || socket.readable_now(); }

  std::optional<transport_error> connect(std::optional<steady::time_point> deadline) {
    if (target.scheme == url_scheme::https && !tls) {
      return make_error(transport_error::kind::tls, "TLS setup for " + where + ": " + tls_error);
    }
    if (!endpoints) {
      tcp::resolver resolver(ioc);
      error_code ec;
      auto results = resolver.resolve(target.host, std::to_string(target.port), ec);
      if (ec || results.empty()) {
        return make_error(transport_error::kind::resolve,
                          "cannot resolve host '" + target.host + "': " + ec.message());
      }
      endpoints = std::move(results);
    }
    auto connect_deadline = deadline;
    if (opts.connect_timeout.count() > 0) {
      const auto c = steady::now() + opts.connect_timeout;
      connect_deadline = deadline ? std::min(c, *deadline) : c;
    }
    socket.set_deadline(connect_deadline);
    error_code ec = socket.connect(*endpoints);
    if (ec) {
      close();
      if (ec == beast::error::timeout) {
        return make_error(
            transport_error::kind::timeout,
            "connect to " + where + " timed out after " + ms_text(opts.connect_timeout));
      }
      return make_error(transport_error::kind::connect,
                        "connect to " + where + ": " + ec.message());
    }
    ++connects;
    if (target.scheme == url_scheme::https) {
      secure.emplace(socket, tls->ctx);
      SSL* ssl = secure->native_handle();
      if (!tls_name_is_ip) SSL_set_tlsext_host_name(ssl, tls_name.c_str());
      if (tls->verify) {
        if (tls_name_is_ip) {
          X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), tls_name.c_str());
        } else {
          SSL_set1_host(ssl, tls_name.c_str());
        }
      }
      secure->handshake(asio::ssl::stream_base::client, ec);
      if (ec) {
        std::string why = ec.message();
        const long verify = SSL_get_verify_result(ssl);
        if (verify != X509_V_OK) {
          why = std::string("certificate verification failed: ") +
                X509_verify_cert_error_string(verify);
        }
        close();
        if (ec == beast::error::timeout) {
          return make_error(transport_error::kind::timeout,
                            "TLS handshake with " + where + " timed out");
        }
        return make_error(transport_error::kind::tls, "TLS handshake with " + where + ": " + why);
      }
    }
    socket.set_deadline(deadline);
    open = true;
    return std::nullopt;
  }

  std::optional<transport_error> serialize(const request& req) {
    head.clear();
    head.append(method_name(req));
    head.push_back(' ');
    const std::size_t target_start = head.size();
    head.append(target.base_path);
    head.append(req.target);
    if (head.size() == target_start) head.push_back('/');
    if (head.find_first_of(" \r\n", target_start) != std::string::npos) {
      return make_error(transport_error::kind::invalid_request,
                        "request target contains a space or a line break");
    }
    head.append(" HTTP/1.1\r\n");
    bool has_host = false, has_agent = false;
    for (const auto& [name, value] : req.headers) {
      if (iequals(name, "Content-Length") || iequals(name, "Transfer-Encoding")) continue;
      if (name.empty() || has_crlf(name) || has_crlf(value) ||
          name.find_first_of(": \t") != std::string::npos) {
        return make_error(transport_error::kind::invalid_request,
                          "header '" + std::string(name.substr(0, 64)) +
                              "' has an invalid name or a line break in its value");
      }
      has_host = has_host || iequals(name, "Host");
      has_agent = has_agent || iequals(name, "User-Agent");
      head.append(name).append(": ").append(value).append("\r\n");
    }
    if (!has_host) head.append("Host: ").append(target.authority()).append("\r\n");
    if (!has_agent) head.append("User-Agent: conform/0.1\r\n");
    if (!req.body.empty() || req.method == verb::post || req.method == verb::put ||
        req.method == verb::patch) {
      char digits[24];
      const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, req.body.size());
      (void)ec;
      head.append("Content-Length: ").append(digits, end).append("\r\n");
    }
    head.append("\r\n");
    return std::nullopt;
  }

  error_code write(const request& req) {
    const std::array<asio::const_buffer, 2> buffers{asio::buffer(head), asio::buffer(req.body)};
    error_code ec;
    if (secure) {
      asio::write(*secure, buffers, ec);
    } else {
      asio::write(socket, buffers, ec);
    }
    return ec;
  }

  error_code read(detail::response_parser& parser) {
    error_code ec;
    if (secure) {
      beast::http::read(*secure, buffer, parser, ec);
    } else {
      beast::http::read(socket, buffer, parser, ec);
    }
    return ec;
  }

  transport_error classify(error_code ec, bool got_some, bool writing) {
    using kind = transport_error::kind;
    const std::string phase = writing ? "sending the request to " : "reading the response from ";
    if (ec == beast::error::timeout) {
      return make_error(kind::timeout,
                        "no complete response from " + where + " within " + ms_text(timeout));
    }
    if (ec == beast::http::error::body_limit) {
      return make_error(kind::too_large, "response body from " + where + " exceeds the cap of " +
                                             std::to_string(opts.max_body_bytes) + " bytes");
    }
    if (ec == beast::http::error::header_limit) {
      return make_error(kind::too_large, "response header from " + where + " exceeds the cap of " +
                                             std::to_string(opts.max_header_bytes) + " bytes");
    }
    if (ec == beast::http::error::end_of_stream || ec == asio::error::eof ||
        ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
        ec == asio::ssl::error::stream_truncated) {
      return make_error(kind::closed, got_some ? where + " closed the connection mid-response"
                                               : where + " closed the connection before answering");
    }
    if (ec == beast::http::error::partial_message) {
      return make_error(kind::closed, where + " closed the connection mid-response");
    }
    if (ec.category() == beast::http::make_error_code(beast::http::error::bad_version).category()) {
      return make_error(kind::protocol,
                        "invalid HTTP response from " + where + ": " + ec.message());
    }
    if (ec.category() == asio::error::get_ssl_category()) {
      return make_error(kind::tls, "TLS error " + phase + where + ": " + ec.message());
    }
    return make_error(kind::io, "I/O error " + phase + where + ": " + ec.message());
  }

  static bool retryable_after_write(error_code ec) {
    return ec == beast::http::error::end_of_stream || ec == asio::error::eof ||
           ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
           ec == asio::ssl::error::stream_truncated;
  }

  result send(const request& req, std::chrono::milliseconds total) {
    const auto start = steady::now();
    timeout = total.count() > 0 ? total : opts.total_timeout;
    std::optional<steady::time_point> deadline;
    if (timeout.count() > 0) deadline = start + timeout;
    result out;
    out.outcome = response{};
    bool reused = false;
    if (open) {
      if (stale()) {
        close();
        out.reconnected = true;
      } else {
        reused = true;
      }
    }
    if (auto bad = serialize(req)) {
      out.outcome = core::fail(std::move(*bad));
      return out;
    }
    std::chrono::nanoseconds connect_time{0};
    for (;;) {
      if (!open) {
        const auto t0 = steady::now();
        if (auto failed = connect(deadline)) {
          out.outcome = core::fail(std::move(*failed));
          return out;
        }
        connect_time += steady::now() - t0;
      } else {
        socket.set_deadline(deadline);
      }
      error_code ec = write(req);
      bool written = !ec;
      if (ec) {
        if (reused && ec != beast::error::timeout) {
          // The idle connection was dead; nothing was processed, send again.
          close();
          reused = false;
          out.reconnected = true;
          continue;
        }
        if (ec == beast::error::timeout) {
          close();
          out.outcome = core::fail(classify(ec, false, true));
          return out;
        }
        // A server may answer before it has read the whole request (413,
        // 414, 431: more than it takes) and close: its answer is still to
        // be read, and says more than "closed".
      }
      response& res = out.outcome.value();
      detail::response_parser parser(res);
      parser.body_limit(opts.max_body_bytes);
      parser.header_limit(opts.max_header_bytes);
      if (req.method == verb::head) parser.skip(true);
      const error_code write_error = ec;
      ec = read(parser);
      if (ec && !written) {
        close();
        out.outcome = core::fail(classify(write_error, false, true));
        return out;
      }
      if (!written) close();  // the server stopped reading: the connection is done
      if (ec) {
        const bool got_some = parser.got_some();
        close();
        if (reused && !got_some && is_idempotent(req.method) && retryable_after_write(ec)) {
          reused = false;
          out.reconnected = true;
          continue;
        }
        if (ec == beast::error::timeout && parser.is_header_done()) {
          // A head and part of a body: an answer that streams (a watch, a
          // feed) looks like this, and says more than "no response".
          out.outcome = core::fail(make_error(
              transport_error::kind::timeout,
              "the response head from " + where + " came (status " + std::to_string(res.status) +
                  ") but its body did not end within " + ms_text(timeout) + " (" +
                  std::to_string(res.body.size()) +
                  " bytes of it had come): an answer that streams, or a server that stalled"));
          return out;
        }
        out.outcome = core::fail(classify(ec, got_some, false));
        return out;
      }
      if (!parser.keep_alive()) close();
      res.reused_connection = reused;
      res.time.connect = connect_time;
      res.time.total = steady::now() - start;
      return out;
    }
  }
};

connection::connection(url target, connection_options opts)
    : impl_(std::make_unique<impl>(std::move(target), std::move(opts), nullptr)) {}

connection::connection(url target, connection_options opts, std::shared_ptr<tls_context> tls)
    : impl_(std::make_unique<impl>(std::move(target), std::move(opts), std::move(tls))) {}

connection::~connection() = default;
connection::connection(connection&&) noexcept = default;
connection& connection::operator=(connection&&) noexcept = default;

result connection::send(const request& req) {
  return impl_->send(req, std::chrono::milliseconds(0));
}
result connection::send(const request& req, std::chrono::milliseconds total_timeout) {
  return impl_->send(req, total_timeout);
}
bool connection::is_open() const {
  return impl_->open;
}
void connection::close() {
  impl_->close();
}
std::uint64_t connection::connects() const {
  return impl_->connects;
}
const url& connection::target() const {
  return impl_->target;
}

}  // namespace conform::http
