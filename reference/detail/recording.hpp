#pragma once
// The certification server's request path: adversity decided, the request
// served by the ordinary pipeline (or not), and the exchange recorded.

#include <httplib.h>

#include "reference/certification.hpp"
#include "reference/detail/context.hpp"

namespace conform::reference::detail {

/// Serves `req` through handle_request with the adversity `recorder` plans,
/// and records the exchange.
void serve_recorded(traffic_recorder& recorder, server_state& state, const httplib::Request& req,
                    httplib::Response& res);

}  // namespace conform::reference::detail
