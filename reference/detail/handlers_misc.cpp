// Health (C14) and the telephony answer callback (D5.6, C10).
#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>

#include "core/text.hpp"
#include "reference/detail/handlers.hpp"
#include "reference/detail/util.hpp"

namespace conform::reference::detail {
namespace json = boost::json;

namespace {

std::atomic<std::uint64_t> answer_counter{0};

}  // namespace

reply health(request_ctx&) {
  return ok(json::object{{"status", "ok"}});
}

reply ready(request_ctx& ctx) {
  std::shared_lock lock(ctx.state.data.mutex);
  return ok(json::object{{"status", "ready"}, {"checks", json::object{{"store", "ok"}}}});
}

reply telephony_answer(request_ctx& ctx) {
  static constexpr std::array<std::string_view, 4> providers = {"twilio", "plivo", "exotel",
                                                                "telnyx"};
  const std::string& provider = ctx.params.at(0);
  if (std::find(providers.begin(), providers.end(), provider) == providers.end()) {
    return error(404, "PROVIDER_NOT_FOUND", "no such telephony provider",
                 json::object{{"provider", provider}});
  }
  if (!ctx.req.has_param("call_id")) return validation_error("call_id", "is required");
  const std::string call_id = ctx.req.get_param_value("call_id");
  // C10: an empty call_id is refused like a missing one (D5.6).
  if (call_id.empty() && !ctx.state.fault_on(fault::lenient_assumptions)) {
    return validation_error("call_id", "must not be empty");
  }
  std::string stream =
      to_hex(hmac_sha256(std::to_string(ctx.state.seed), provider + ":" + call_id)).substr(0, 24);
  if (ctx.state.fault_on(fault::telephony_not_idempotent))
    stream += "-" + std::to_string(answer_counter.fetch_add(1));
  std::string markup;
  if (provider == "telnyx") {
    markup =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response><Stream "
        "url=\"wss://media.example.com/telnyx/" +
        stream + "\" call_id=\"" + core::xml_escape(call_id) + "\"/></Response>";
  } else {
    markup =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response><Connect><Stream "
        "url=\"wss://media.example.com/" +
        provider + "/" + stream + "\"><Parameter name=\"call_id\" value=\"" +
        core::xml_escape(call_id) + "\"/></Stream></Connect></Response>";
  }
  reply r;
  r.raw_json = true;
  r.body_text = json::serialize(json::string(markup));
  return r;
}

}  // namespace conform::reference::detail
