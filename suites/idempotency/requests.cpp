#include "suites/idempotency/requests.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

namespace conform::suites::idempotency {
namespace {

/// A small multiple of the property's step within its bounds, as JSON text
/// with no more decimals than the step has; nullopt when none fits.
std::optional<std::string> small_number(const schema::schema& s, int variant) {
  const double step = s.multiple_of.value_or(1.0);
  if (!(step > 0) || step > 1e6) return std::nullopt;
  int decimals = 0;
  double scaled = step;
  while (decimals < 6 && std::fabs(scaled - std::round(scaled)) > 1e-9) {
    scaled *= 10;
    ++decimals;
  }
  const auto unit = static_cast<long long>(std::llround(scaled));
  long long pow10 = 1;
  for (int i = 0; i < decimals; ++i) pow10 *= 10;
  const long long units = unit * (1 + variant % 5);
  const double value = static_cast<double>(units) / static_cast<double>(pow10);
  if ((s.minimum && value < *s.minimum) || (s.exclusive_minimum && value <= *s.exclusive_minimum) ||
      (s.maximum && value > *s.maximum) || (s.exclusive_maximum && value >= *s.exclusive_maximum)) {
    return std::nullopt;
  }
  std::string text = std::to_string(units / pow10);
  if (decimals > 0) {
    std::string fraction = std::to_string(units % pow10);
    fraction.insert(
        0, static_cast<std::size_t>(decimals) - std::min<std::size_t>(fraction.size(), decimals),
        '0');
    text += "." + fraction;
  }
  return text;
}

std::string without_boundary(const http::request& r) {
  const auto* type = r.find_header("Content-Type");
  if (!type) return r.body;
  const auto at = type->find("boundary=");
  if (at == std::string::npos) return r.body;
  std::string boundary = type->substr(at + 9);
  boundary = boundary.substr(0, boundary.find(';'));
  if (boundary.size() >= 2 && boundary.front() == '"' && boundary.back() == '"') {
    boundary = boundary.substr(1, boundary.size() - 2);
  }
  if (boundary.empty()) return r.body;
  std::string body = r.body;
  for (auto pos = body.find(boundary); pos != std::string::npos; pos = body.find(boundary, pos)) {
    body.erase(pos, boundary.size());
  }
  return body;
}

}  // namespace

generators::generated_request with_small_numbers(const openapi::operation& op,
                                                 generators::generated_request g, int variant) {
  if (!op.body) return g;
  const auto* media = op.body->find(g.content_type);
  if (!media || !media->schema) return g;
  boost::system::error_code ec;
  auto parsed = boost::json::parse(g.body, ec);
  if (ec || !parsed.is_object()) return g;
  const auto& body_schema = media->schema->resolved();
  std::string text = "{";
  bool changed = false;
  for (const auto& [name, value] : parsed.as_object()) {
    if (text.size() > 1) text += ",";
    text += boost::json::serialize(boost::json::string(name)) + ":";
    const auto* property = body_schema.property(name);
    std::optional<std::string> small;
    if (property && value.is_number()) {
      const auto& s = property->resolved();
      if (!s.fixture && s.enum_values.empty() && !s.const_value) small = small_number(s, variant);
    }
    changed = changed || small.has_value();
    text += small ? *small : boost::json::serialize(value);
  }
  text += "}";
  if (changed) g.body = std::move(text);
  return g;
}

bool same_request(const openapi::operation& op, const http::request& a, const http::request& b) {
  if (a.method != b.method || a.target != b.target) return false;
  const std::string& tenant_header = op.tenant.from == openapi::tenant_context::source::header
                                         ? op.tenant.name
                                         : op.tenant.header_name;
  if (!tenant_header.empty()) {
    const auto* x = a.find_header(tenant_header);
    const auto* y = b.find_header(tenant_header);
    if ((x == nullptr) != (y == nullptr) || (x && *x != *y)) return false;
  }
  return without_boundary(a) == without_boundary(b);
}

bool stored(const harness::probe& p, const openapi::operation& op, const openapi::api_spec& spec) {
  if (!p.answered() || p.status() >= 500) return false;
  const int status = static_cast<int>(p.status());
  if (status == 401 || status == 403 || status == 415) return false;
  if (spec.rules.rate_limited_status != 0 && status == spec.rules.rate_limited_status) {
    return false;
  }
  if (op.tenant.missing_status != 0 && status == op.tenant.missing_status &&
      (op.tenant.missing_code.empty() || p.error_code() == op.tenant.missing_code)) {
    return false;
  }
  return true;
}

}  // namespace conform::suites::idempotency
