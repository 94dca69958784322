#include "tests/reference/support.hpp"

namespace conform::reference::testing {
namespace json = boost::json;

std::unique_ptr<server> server_test::server_;
std::unique_ptr<client> server_test::client_;

std::string answer::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? "" : it->second;
}

std::string answer::code() const {
  if (!json.is_object()) return "";
  const auto* c = json.as_object().if_contains("error_code");
  return c != nullptr && c->is_string() ? std::string(c->as_string()) : "";
}

const json::object& answer::data() const {
  static const json::object empty;
  if (!json.is_object()) {
    ADD_FAILURE() << "body is not a JSON object: " << raw;
    return empty;
  }
  const auto* d = json.as_object().if_contains("data");
  if (d == nullptr || !d->is_object()) {
    ADD_FAILURE() << "body has no data object: " << raw;
    return empty;
  }
  return d->as_object();
}

client::client(const server& srv) : port_(srv.port()) {}

namespace {

answer to_answer(const httplib::Result& res) {
  answer a;
  if (!res) {
    ADD_FAILURE() << "request failed: " << httplib::to_string(res.error());
    return a;
  }
  a.status = res->status;
  a.headers = res->headers;
  a.raw = res->body;
  json::error_code ec;
  a.json = json::parse(a.raw, ec);
  if (ec) a.json = nullptr;
  return a;
}

std::string full_path(const std::string& path) {
  if (path.rfind("//", 0) == 0) return path.substr(1);
  return "/api/v1" + path;
}

}  // namespace

answer client::send(const std::string& method, const std::string& path, const header_list& headers,
                    const std::string& body, const std::string& content_type) const {
  httplib::Client cli("127.0.0.1", port_);
  cli.set_read_timeout(30);
  httplib::Request req;
  req.method = method;
  req.path = full_path(path);
  for (const auto& [k, v] : headers) req.headers.emplace(k, v);
  if (!body.empty() || method == "POST" || method == "PATCH") {
    req.body = body;
    if (!content_type.empty()) req.headers.emplace("Content-Type", content_type);
  }
  httplib::Response res;
  httplib::Error err = httplib::Error::Success;
  bool ok = cli.send(req, res, err);
  answer a;
  if (!ok) {
    ADD_FAILURE() << method << " " << path << " failed: " << httplib::to_string(err);
    return a;
  }
  a.status = res.status;
  a.headers = res.headers;
  a.raw = res.body;
  json::error_code ec;
  a.json = json::parse(a.raw, ec);
  if (ec) a.json = nullptr;
  return a;
}

answer client::multipart(const std::string& path, const header_list& headers,
                         const httplib::MultipartFormDataItems& items) const {
  httplib::Client cli("127.0.0.1", port_);
  cli.set_read_timeout(30);
  httplib::Headers h;
  for (const auto& [k, v] : headers) h.emplace(k, v);
  return to_answer(cli.Post(full_path(path).c_str(), h, items));
}

std::string str(const json::value& v) {
  return v.is_string() ? std::string(v.as_string()) : "<not a string>";
}

header_list api_key(const std::string& secret) {
  return {{"X-Api-Key", secret}};
}

header_list partner_key(const std::string& secret, const std::string& tenant) {
  header_list h{{"X-Partner-Api-Key", secret}};
  if (!tenant.empty()) h.emplace_back("X-Tenant-Id", tenant);
  return h;
}

header_list bearer(const std::string& token) {
  return {{"Authorization", "Bearer " + token}};
}

void server_test::start(server_config cfg) {
  client_.reset();
  server_.reset();
  server_ = std::make_unique<server>(std::move(cfg));
  client_ = std::make_unique<client>(*server_);
}

void server_test::TearDownTestSuite() {
  client_.reset();
  server_.reset();
}

server& server_test::srv() {
  return *server_;
}
client& server_test::http() {
  return *client_;
}
std::string server_test::cred(const std::string& name) {
  return server_->credential(name);
}
std::string server_test::fx(const std::string& tenant, const std::string& name) {
  return server_->fixture(tenant, name);
}

}  // namespace conform::reference::testing
