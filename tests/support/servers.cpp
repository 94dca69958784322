#include "tests/support/servers.hpp"

#include <httplib.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <stdexcept>

namespace conform::test_support {

namespace asio = boost::asio;
using asio::ip::tcp;

void gate::open() {
  {
    std::lock_guard lock(mutex_);
    open_ = true;
  }
  cv_.notify_all();
}

void gate::wait() {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [this] { return open_; });
}

httplib_runner::httplib_runner(std::unique_ptr<httplib::Server> server)
    : server_(std::move(server)) {
  const int port = server_->bind_to_any_port("127.0.0.1");
  if (port <= 0) throw std::runtime_error("httplib: cannot bind 127.0.0.1:0");
  port_ = static_cast<unsigned short>(port);
  // The socket listens from here on: clients may connect before the thread runs.
  thread_ = std::thread([this] { server_->listen_after_bind(); });
}

httplib_runner::~httplib_runner() {
  // stop() is a no-op until listen has started; wait for it without sleeping.
  while (!server_->is_running()) std::this_thread::yield();
  server_->stop();
  thread_.join();
}

namespace {

std::unique_ptr<httplib::Server> answering_everything(scripted_server::handler h) {
  auto server = std::make_unique<httplib::Server>();
  server->Get(".*", h);
  server->Post(".*", h);
  server->Put(".*", h);
  server->Patch(".*", h);
  server->Delete(".*", h);
  return server;
}

}  // namespace

scripted_server::scripted_server(handler h) : runner_(answering_everything(std::move(h))) {}

raw_server::raw_server(session_fn session)
    : acceptor_(ioc_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
      session_(std::move(session)) {
  port_ = acceptor_.local_endpoint().port();
  thread_ = std::thread([this] {
    for (int index = 0;; ++index) {
      tcp::socket s(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(s, ec);
      if (ec || stopping_.load()) return;
      ++accepted_;
      session_(s, index);
    }
  });
}

void raw_server::stop_listening() {
  stopping_ = true;
  boost::system::error_code ec;
  acceptor_.close(ec);
}

raw_server::~raw_server() {
  stopping_ = true;
  // Wake the blocking accept with one last connection.
  asio::io_context ioc;
  tcp::socket poke(ioc);
  boost::system::error_code ec;
  poke.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_), ec);
  thread_.join();
}

std::string any_method_server::request::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (k.size() == name.size() && std::equal(k.begin(), k.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      return v;
    }
  }
  return {};
}

any_method_server::any_method_server(handler h)
    : handler_(std::move(h)),
      acceptor_(ioc_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
  port_ = acceptor_.local_endpoint().port();
  thread_ = std::thread([this] {
    for (;;) {
      tcp::socket s(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(s, ec);
      if (ec || stopping_.load()) return;
      std::lock_guard lock(mutex_);
      sessions_.emplace_back([this, sock = std::move(s)]() mutable { serve(std::move(sock)); });
    }
  });
}

any_method_server::~any_method_server() {
  stopping_ = true;
  {
    asio::io_context ioc;
    tcp::socket poke(ioc);
    boost::system::error_code ec;
    poke.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_), ec);
  }
  thread_.join();
  std::vector<std::thread> sessions;
  {
    std::lock_guard lock(mutex_);
    for (auto& s : open_) {
      boost::system::error_code ec;
      s->shutdown(tcp::socket::shutdown_both, ec);
    }
    sessions.swap(sessions_);
  }
  for (auto& t : sessions) t.join();
}

void any_method_server::serve(tcp::socket sock) {
  namespace http = boost::beast::http;
  auto s = std::make_shared<tcp::socket>(std::move(sock));
  {
    std::lock_guard lock(mutex_);
    if (stopping_.load()) return;  // the destructor has shut the others already
    open_.push_back(s);
  }
  boost::beast::flat_buffer buffer;
  for (;;) {
    http::request<http::string_body> in;
    boost::system::error_code ec;
    http::read(*s, buffer, in, ec);
    if (ec) return;
    request req;
    req.method = std::string(in.method_string());
    req.target = std::string(in.target());
    for (const auto& f : in) req.headers.emplace_back(f.name_string(), f.value());
    req.body = in.body();
    const response res = handler_(req);
    http::response<http::string_body> out{static_cast<http::status>(res.status), in.version()};
    if (!res.content_type.empty() && !res.body.empty())
      out.set(http::field::content_type, res.content_type);
    out.body() = res.body;
    out.keep_alive(in.keep_alive());
    out.prepare_payload();
    http::write(*s, out, ec);
    if (ec || !in.keep_alive()) return;
  }
}

std::string raw_server::read_request(socket& s) {
  asio::streambuf buf;
  boost::system::error_code ec;
  const std::size_t head_size = asio::read_until(s, buf, "\r\n\r\n", ec);
  if (ec) return {};
  std::string text(asio::buffers_begin(buf.data()), asio::buffers_end(buf.data()));
  std::string head = text.substr(0, head_size);
  std::size_t length = 0;
  for (std::string name : {"Content-Length: ", "content-length: "}) {
    const auto at = head.find(name);
    if (at != std::string::npos) length = std::stoul(head.substr(at + name.size()));
  }
  std::string body = text.substr(head_size);
  if (body.size() < length) {
    std::string rest(length - body.size(), '\0');
    asio::read(s, asio::buffer(rest), ec);
    body += rest;
  }
  return head + body;
}

void raw_server::write(socket& s, const std::string& bytes) {
  boost::system::error_code ec;
  asio::write(s, asio::buffer(bytes), ec);
}

test_certificate make_self_signed_certificate(const std::string& subject_alt_names) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* x509 = X509_new();
  X509_set_version(x509, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x509), 1);
  X509_gmtime_adj(X509_getm_notBefore(x509), -3600);
  X509_gmtime_adj(X509_getm_notAfter(x509), 3600L * 24);
  X509_set_pubkey(x509, key);
  X509_NAME* name = X509_get_subject_name(x509);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("conform-test"), -1, -1, 0);
  X509_set_issuer_name(x509, name);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, x509, x509, nullptr, nullptr, 0);
  for (const auto& [nid, value] : {std::pair{NID_subject_alt_name, subject_alt_names.c_str()},
                                   std::pair{NID_basic_constraints, "critical,CA:TRUE"}}) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    X509_add_ext(x509, ext, -1);
    X509_EXTENSION_free(ext);
  }
  X509_sign(x509, key, EVP_sha256());
  auto to_pem = [](auto write) {
    BIO* bio = BIO_new(BIO_s_mem());
    write(bio);
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    std::string out(data, static_cast<std::size_t>(n));
    BIO_free(bio);
    return out;
  };
  test_certificate out;
  out.cert_pem = to_pem([&](BIO* b) { PEM_write_bio_X509(b, x509); });
  out.key_pem = to_pem(
      [&](BIO* b) { PEM_write_bio_PrivateKey(b, key, nullptr, nullptr, 0, nullptr, nullptr); });
  X509_free(x509);
  EVP_PKEY_free(key);
  return out;
}

std::unique_ptr<httplib::Server> make_tls_server(const test_certificate& cert) {
  BIO* cb = BIO_new_mem_buf(cert.cert_pem.data(), static_cast<int>(cert.cert_pem.size()));
  X509* x509 = PEM_read_bio_X509(cb, nullptr, nullptr, nullptr);
  BIO_free(cb);
  BIO* kb = BIO_new_mem_buf(cert.key_pem.data(), static_cast<int>(cert.key_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(kb, nullptr, nullptr, nullptr);
  BIO_free(kb);
  auto server = std::make_unique<httplib::SSLServer>(x509, key);
  X509_free(x509);
  EVP_PKEY_free(key);
  if (!server->is_valid()) throw std::runtime_error("httplib::SSLServer rejected the certificate");
  return server;
}

}  // namespace conform::test_support
