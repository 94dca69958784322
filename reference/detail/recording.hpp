#pragma once
// The certification server's request path: adversity decided, the request
// served by the ordinary pipeline (or not), and the exchange recorded as it
// came off the wire (reference/detail/wire.hpp).

#include <httplib.h>

#include "reference/certification.hpp"
#include "reference/detail/context.hpp"

namespace conform::reference::detail {

struct wire_request;

/// Serves `req` through handle_request with the adversity `recorder` plans,
/// and records the exchange.
void serve_recorded(traffic_recorder& recorder, server_state& state, const httplib::Request& req,
                    httplib::Response& res);

/// The answer to the recorded request `wire.tag` was written (or not: the
/// connection was dropped, or the client had gone): its time, and whether
/// the client got it.
void answered_recorded(traffic_recorder& recorder, const wire_request& wire, bool delivered);

}  // namespace conform::reference::detail
