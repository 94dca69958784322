#include "reference/server.hpp"

#include <httplib.h>

#include <stdexcept>
#include <thread>

#include "core/form.hpp"
#include "core/outcome.hpp"
#include "reference/detail/context.hpp"
#include "reference/detail/pipeline.hpp"
#include "reference/detail/profile.hpp"
#include "reference/detail/recording.hpp"
#include "reference/detail/util.hpp"
#include "reference/detail/wire.hpp"

namespace conform::reference {

namespace detail {

server_state::server_state(std::string env, std::string secret, std::uint64_t seed_value,
                           fault_set f, int rate_per_second)
    : environment(std::move(env)),
      jwt_secret(std::move(secret)),
      cursor_key(hmac_sha256("conform-cursor", std::to_string(seed_value))),
      faults(f),
      credentials(seed_value, environment, jwt_secret, now_seconds()),
      limiter(rate_per_second),
      seed(seed_value) {}

}  // namespace detail

namespace {

constexpr std::size_t max_multipart_bytes = 10 * 1024 * 1024;

bool has_body(const httplib::Request& req) {
  if (req.has_header("Transfer-Encoding")) return true;
  if (!req.has_header("Content-Length")) return false;
  return req.get_header_value("Content-Length") != "0";
}

/// `req` with its multipart body read off the wire and parsed by
/// core::parse_multipart into `files`, as cpp-httplib would have filled
/// them; a body that is not multipart as its Content-Type says is kept in
/// `body` with no files, which the pipeline answers as malformed. Fails
/// with the status of a body that could not be read (413 or 400).
core::outcome<httplib::Request, int> read_multipart(const httplib::Request& req) {
  detail::wire_body raw = detail::read_wire_body(req, max_multipart_bytes);
  if (raw.refused != 0) return core::fail(raw.refused);
  httplib::Request copy = req;
  auto parts = core::parse_multipart(
      raw.bytes, core::multipart_boundary(req.get_header_value("Content-Type")));
  if (!parts) {
    copy.body = std::move(raw.bytes);
    return copy;
  }
  for (auto& p : *parts) {
    std::string name = p.name;
    copy.files.emplace(std::move(name), httplib::MultipartFormData{
                                            std::move(p.name), std::move(p.content),
                                            std::move(p.filename), std::move(p.content_type)});
  }
  return copy;
}

}  // namespace

struct server::impl {
  explicit impl(const server_config& c, fault_set f, std::string secret)
      : state(c.environment, std::move(secret), c.seed, f, c.rate_limit_per_second) {}
  detail::server_state state;
  detail::wire_server http;  // httplib's server, reading requests through the wire stream
  std::thread thread;
  int port = 0;
  bool stopped = false;
};

server::server(server_config config) {
  if (config.environment != "sandbox" && config.environment != "production") {
    throw std::invalid_argument("environment must be 'sandbox' or 'production', not '" +
                                config.environment + "'");
  }
  if (config.scale < 1 || config.scale > 1000) {
    throw std::invalid_argument("scale must be from 1 to 1000, not " +
                                std::to_string(config.scale));
  }
  if (config.port < 0 || config.port > 65535) {
    throw std::invalid_argument("port must be from 0 to 65535, not " + std::to_string(config.port));
  }
  if (config.threads < 1 || config.threads > 256) {
    throw std::invalid_argument("threads must be from 1 to 256");
  }
  fault_set faults(config.faults);  // throws on an unknown name
  std::string secret = config.jwt_secret;
  if (secret.empty()) {
    secret = detail::to_hex(detail::hmac_sha256("conform-jwt", std::to_string(config.seed)));
  }
  impl_ = std::make_unique<impl>(config, faults, secret);
  detail::seed_store(impl_->state.data, config.seed, config.scale, config.environment);

  auto& http = impl_->http;
  auto* state = &impl_->state;
  const int threads = config.threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  http.set_payload_max_length(max_multipart_bytes);
  http.set_keep_alive_timeout(2);
  http.set_keep_alive_max_count(100);
  http.set_tcp_nodelay(true);
  http.set_read_timeout(5);
  http.set_write_timeout(5);
  if (config.recorder) {
    http.keep_bodies(true);
    http.on_answered = [recorder = config.recorder](const detail::wire_request& w, bool delivered) {
      detail::answered_recorded(*recorder, w, delivered);
    };
  }
  auto serve = [state, recorder = config.recorder](const httplib::Request& req,
                                                   httplib::Response& res) {
    if (recorder) return detail::serve_recorded(*recorder, *state, req, res);
    detail::handle_request(*state, req, res);
  };
  http.set_pre_routing_handler([serve, state](const httplib::Request& req, httplib::Response& res) {
    // Requests without a body are served here, before cpp-httplib's regex
    // dispatch, and so are multipart ones, whose body is read here
    // (read_multipart); requests with another body go through the dispatch
    // so that cpp-httplib reads it.
    if (has_body(req) && req.path.size() <= 1024 && !req.is_multipart_form_data())
      return httplib::Server::HandlerResponse::Unhandled;
    if (!req.is_multipart_form_data() || !has_body(req)) {
      serve(req, res);
    } else if (auto read = read_multipart(req)) {
      serve(*read, res);
    } else {
      // The rest of the body is not a request: answer, then close.
      res.status = read.error();
      detail::handle_transport_error(*state, req, res);
      res.set_header("Connection", "close");
    }
    return httplib::Server::HandlerResponse::Handled;
  });
  auto handler = [serve](const httplib::Request& req, httplib::Response& res) { serve(req, res); };
  // Every path goes to the one router (which answers 404/405 itself); `.`
  // would not match a decoded newline in a path segment.
  static constexpr const char* any_path = R"([\s\S]*)";
  http.Get(any_path, handler);
  http.Post(any_path, handler);
  http.Put(any_path, handler);
  http.Patch(any_path, handler);
  http.Delete(any_path, handler);
  http.Options(any_path, handler);
  http.set_error_handler(httplib::Server::HandlerWithResponse(
      [state](const httplib::Request& req, httplib::Response& res) {
        return detail::handle_transport_error(*state, req, res);
      }));
  http.set_exception_handler(
      [state](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
        detail::handle_exception(*state, req, res, ep);
      });
  int port = 0;
  if (config.port == 0) {
    port = http.bind_to_any_port("127.0.0.1");
  } else if (http.bind_to_port("127.0.0.1", config.port)) {
    port = config.port;
  }
  if (port <= 0) {
    throw std::runtime_error("cannot bind 127.0.0.1:" + std::to_string(config.port));
  }
  impl_->port = port;
  impl_->thread = std::thread([&http] { http.listen_after_bind(); });
  // The socket already listens (connections queue in its backlog); wait until
  // the accept loop runs so that stop() cannot miss it.
  while (!http.is_running()) std::this_thread::yield();
}

server::~server() {
  stop();
}

void server::stop() {
  if (!impl_ || impl_->stopped) return;
  impl_->stopped = true;
  impl_->http.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

int server::port() const {
  return impl_->port;
}

std::string server::base_url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->port) + "/api/v1";
}

std::string server::profile_yaml() const {
  return detail::profile_yaml(impl_->state, base_url());
}

std::string server::credential(const std::string& name) const {
  const auto* c = impl_->state.credentials.find_name(name);
  if (c == nullptr) throw std::out_of_range("no credential named '" + name + "'");
  return c->secret;
}

std::string server::fixture(const std::string& tenant, const std::string& name) const {
  std::shared_lock lock(impl_->state.data.mutex);
  auto t = impl_->state.data.fixtures.find(tenant);
  if (t == impl_->state.data.fixtures.end()) throw std::out_of_range("no tenant '" + tenant + "'");
  auto f = t->second.find(name);
  if (f == t->second.end()) throw std::out_of_range("no fixture '" + name + "' in " + tenant);
  return f->second;
}

}  // namespace conform::reference
