#pragma once
// The request pipeline: routing and the precedence of D6.3, then the handler,
// the idempotency store around it, and the envelope written back.

#include <httplib.h>

#include "reference/detail/context.hpp"

namespace conform::reference::detail {

/// Serves one request end to end (the catch-all handler of every method).
void handle_request(server_state& state, const httplib::Request& req, httplib::Response& res);
/// Fills the error envelope for answers cpp-httplib produced itself (413 for
/// bodies over the multipart limit, 400 for unparsable HTTP, ...); leaves
/// answers that already have a body alone.
httplib::Server::HandlerResponse handle_transport_error(server_state& state,
                                                        const httplib::Request& req,
                                                        httplib::Response& res);
/// Answers an exception that escaped a handler with 500 INTERNAL_ERROR.
void handle_exception(server_state& state, const httplib::Request& req, httplib::Response& res,
                      std::exception_ptr ep);

}  // namespace conform::reference::detail
